// Segments layout of axis/axis.wgsl: output s reduces elements [offsets[s], offsets[s + 1]) of
// the values (CSR offsets, bound at binding 0). Offsets are clamped to the values and to each
// other before any read, so bad offsets give wrong segments (which the offsets check reports),
// never a read out of bounds.
//
// No invocation walks more than a bounded stretch of the values, whatever the segments' lengths
// (llvmpipe ends every loop of an invocation after 65,535 iterations in all, and one thread
// walking a long segment would also leave a real GPU idle): a segment of at most `long`
// elements (AxisParams::splits) is reduced by `lanes` threads (WG / lanes segments per
// workgroup); a longer one by blocks of 2^block_shift elements (AxisParams::chunk), in two
// dispatches:
// - the first's workgroups from `tiles` on each reduce one block: the part of it that belongs
//   to the segment holding its first element and the part that belongs to the segment holding
//   its last, where those are long, into block_states[2 * block] and [2 * block + 1];
// - the second's (flag SEGMENT_LONG) workgroup b finishes the long segment whose last element
//   lies in block b, combining the states of the blocks the segment spans (`long` is at least
//   a block, so a long segment spans two blocks or more and starts at or before its second
//   block's first element).
// AxisParams: outer = segments, r = elements of the values, tiles = workgroups of segments in
// the first dispatch, groups = workgroups of the dispatch.
@group(0) @binding(0) var<storage, read> offsets: array<u32>;
@group(0) @binding(4) var<storage, read_write> block_states: array<S>;

// The length of the segment being stored (mean_segments.wgsl).
var<private> segment_len: u32;

// Segment s's elements [x, y), clamped to the values.
fn segment_bounds(s: u32) -> vec2<u32> {
    let a = min(offsets[s], params.r);
    return vec2<u32>(a, clamp(offsets[s + 1u], a, params.r));
}

// The workgroup's search of the offsets (segment_at).
var<workgroup> search_hit: array<u32, WG>;
var<workgroup> search_at: u32;

// The segment holding element i: the last s whose offsets[s] <= i (0 if none), found by the
// whole workgroup (call it in uniform control flow). Each step tests WG evenly spaced
// candidates of the range left, one load each, so 2^20 segments take 3 steps where a binary
// search takes 20 loads one after another. Bad offsets give some segment of the range.
fn segment_at(lid: u32, i: u32) -> u32 {
    var lo = 0u;
    var hi = params.outer;
    while hi - lo > 1u {
        let step = (hi - lo + WG - 1u) / WG;
        let c = lo + lid * step;
        // The range's first candidate always counts (offsets[lo] <= i holds after a step; at
        // 0 it gives the answer 0 where no offset is at most i).
        let hit = lid == 0u || (c < hi && offsets[c] <= i);
        search_hit[lid] = select(0u, 1u, hit);
        workgroupBarrier();
        if hit && (lid + 1u == WG || search_hit[min(lid + 1u, WG - 1u)] == 0u) {
            search_at = c;
        }
        let at = workgroupUniformLoad(&search_at);
        lo = min(at, hi - 1u);
        hi = min(lo + step, hi);
    }
    return lo;
}

// Elements [lo, hi), element k at index k - first of its segment, `step` threads apart from
// thread `t`'s first.
fn reduce_range(lo: u32, hi: u32, first: u32, t: u32, step: u32) -> S {
    var acc0 = identity();
    var acc1 = acc0;
    var acc2 = acc0;
    var acc3 = acc0;
    var k = lo + t;
    while k + 3u * step < hi {
        acc0 = combine(acc0, load(k, k - first));
        acc1 = combine(acc1, load(k + step, k + step - first));
        acc2 = combine(acc2, load(k + 2u * step, k + 2u * step - first));
        acc3 = combine(acc3, load(k + 3u * step, k + 3u * step - first));
        k += 4u * step;
    }
    while k < hi {
        acc0 = combine(acc0, load(k, k - first));
        k += step;
    }
    return combine(combine(acc0, acc1), combine(acc2, acc3));
}

// Segments of at most `long` elements, `lanes` threads each.
fn reduce_short(lid: u32, g: u32) {
    let shift = params.lanes_shift;
    let lanes = 1u << shift;
    let seg = (g << (WG_SHIFT - shift)) + (lid >> shift);
    let lane = lid & (lanes - 1u);
    var acc = identity();
    var len = 0u;
    if seg < params.outer {
        let ab = segment_bounds(seg);
        len = ab.y - ab.x;
        if len <= params.splits {
            acc = reduce_range(ab.x, ab.y, ab.x, lane, lanes);
        }
    }
    let total = lanes_combine(lid, lane, lanes, acc);
    if lane == 0u && seg < params.outer && len <= params.splits {
        segment_len = len;
        store(seg, total);
    }
}

// Block b: the part of it in the segment of its first element, and the part in the segment of
// its last, by the whole workgroup.
fn reduce_block(lid: u32, b: u32) {
    let lo = b << params.chunk;
    let hi = min(lo + (1u << params.chunk), params.r);
    let s0 = segment_at(lid, lo);
    let s1 = segment_at(lid, hi - 1u);
    // Only long segments' parts: the pass that finishes them reads no other state, and the
    // short ones are reduced whole by their lanes.
    let ab0 = segment_bounds(s0);
    var head = identity();
    if ab0.y - ab0.x > params.splits {
        head = reduce_range(max(lo, ab0.x), min(hi, ab0.y), ab0.x, lid, WG);
    }
    let first = lanes_combine(lid, lid, WG, head);
    var tail = identity();
    let ab1 = segment_bounds(s1);
    if s1 != s0 && ab1.y - ab1.x > params.splits {
        tail = reduce_range(max(lo, ab1.x), min(hi, ab1.y), ab1.x, lid, WG);
    }
    let last = lanes_combine(lid, lid, WG, tail);
    if lid == 0u {
        block_states[2u * b] = first;
        block_states[2u * b + 1u] = last;
    }
}

// The long segment whose last element lies in block b, if any: the states of the blocks it
// spans (of its first block the part in the segment of the block's last element, unless the
// segment starts at the block's first element), by the whole workgroup.
fn finish_long(lid: u32, b: u32) {
    let seg = segment_at(lid, b << params.chunk);
    let ab = segment_bounds(seg);
    let len = ab.y - ab.x;
    let own = len > params.splits && ((ab.y - 1u) >> params.chunk) == b;
    var acc = identity();
    if own {
        let w0 = ab.x >> params.chunk;
        let aligned = (ab.x & ((1u << params.chunk) - 1u)) == 0u;
        var w = w0 + lid;
        while w <= b {
            let at = select(2u * w, 2u * w + 1u, w == w0 && !aligned);
            acc = combine(acc, block_states[at]);
            w += WG;
        }
    }
    let total = lanes_combine(lid, lid, WG, acc);
    if lid == 0u && own {
        segment_len = len;
        store(seg, total);
    }
}

fn reduce_segments(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g >= params.groups {
        return;
    }
    if (params.flags & SEGMENT_LONG) != 0u {
        finish_long(lid, g);
    } else if g >= params.tiles {
        reduce_block(lid, g - params.tiles);
    } else {
        reduce_short(lid, g);
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    reduce_segments(lid, wid);
}
