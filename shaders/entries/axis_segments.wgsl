// Segments layout of reduce_axis.wgsl: output s reduces elements [offsets[s], offsets[s + 1]) of
// the values (CSR offsets, bound at binding 0). Offsets are clamped to the values and to each
// other before any read, so bad offsets give wrong segments (which the offsets check reports),
// never a read out of bounds. `lanes` threads share a segment (WG / lanes segments per
// workgroup); each segment is cut into `splits` equal chunks (workgroup_id.z), writing states
// [segments, splits]. A pass over those states (the prelude's SEGMENT_STATES) reads `chunk`
// states per segment; its final store knows the segment's length (mean's divisor).
// AxisParams: outer = segments, r = elements of the values.
@group(0) @binding(0) var<storage, read> offsets: array<u32>;

// The length of the segment being stored (mean_segments.wgsl).
var<private> segment_len: u32;

fn reduce_segments(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g >= params.groups {
        return;
    }
    let shift = params.lanes_shift;
    let lanes = 1u << shift;
    let split = wid.z;
    let seg = (g << (WG_SHIFT - shift)) + (lid >> shift);
    let lane = lid & (lanes - 1u);
    var acc0 = identity();
    var len = 0u;
    if seg < params.outer {
        let a = min(offsets[seg], params.r);
        let b = clamp(offsets[seg + 1u], a, params.r);
        len = b - a;
        var lo = seg * params.chunk;
        var hi = lo + params.chunk;
        var first = lo;
        if !SEGMENT_STATES {
            let per = (len + params.splits - 1u) / params.splits;
            lo = min(a + split * per, b);
            hi = min(lo + per, b);
            first = a;
        }
        var acc1 = acc0;
        var acc2 = acc0;
        var acc3 = acc0;
        var k = lo + lane;
        while k + 3u * lanes < hi {
            acc0 = combine(acc0, load(k, k - first));
            acc1 = combine(acc1, load(k + lanes, k + lanes - first));
            acc2 = combine(acc2, load(k + 2u * lanes, k + 2u * lanes - first));
            acc3 = combine(acc3, load(k + 3u * lanes, k + 3u * lanes - first));
            k += 4u * lanes;
        }
        while k < hi {
            acc0 = combine(acc0, load(k, k - first));
            k += lanes;
        }
        acc0 = combine(combine(acc0, acc1), combine(acc2, acc3));
    }
    let total = lanes_combine(lid, lane, lanes, acc0);
    if lane == 0u && seg < params.outer {
        segment_len = len;
        store(seg * params.splits + split, total);
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    reduce_segments(lid, wid);
}
