// Column pairs layout (added to the source of axis/axis.wgsl for that layout only; the prelude
// defines `struct Pair { a: S, b: S }` and `fn load2(k: u32, j: u32) -> Pair`, the two elements
// of the u32 word holding elements k and k + 1, k even).
//
// Column pairs: the columns layout for 16-bit input (first pass, even `inner`, even window
// base), where each thread owns two adjacent columns, the two halves of one u32 word read by one
// load (load2, from the prelude): one load instruction per word, where one column per thread
// takes two (each half separately). `lanes` threads cover 2 * lanes columns; tiles count pairs.
var<workgroup> scratch_b: array<S, WG>;

fn reduce_col_pairs(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g >= params.groups {
        return;
    }
    let t = col_tile(lid, g);
    let shape = col_shape();
    let cols = shape.cols;
    let slices = shape.slices;
    let ty = t.ty;
    let o = t.o;
    let split = wid.z;
    let i = ((t.tile << params.lanes_shift) + t.tx) * 2u;
    let inner = params.inner;
    var a0 = identity();
    var b0 = a0;
    if i < inner {
        var a1 = a0;
        var b1 = a0;
        var a2 = a0;
        var b2 = a0;
        var a3 = a0;
        var b3 = a0;
        let start = split * params.chunk;
        let end = min(start + params.chunk, params.r);
        let step = slices * inner;
        var j = start + ty;
        var k = (o * params.r + j) * inner + i;
        // Four words in flight per thread, as the one-column layout has four elements.
        while j + 3u * slices < end {
            let p0 = load2(k, j);
            let p1 = load2(k + step, j + slices);
            let p2 = load2(k + 2u * step, j + 2u * slices);
            let p3 = load2(k + 3u * step, j + 3u * slices);
            a0 = combine(a0, p0.a);
            b0 = combine(b0, p0.b);
            a1 = combine(a1, p1.a);
            b1 = combine(b1, p1.b);
            a2 = combine(a2, p2.a);
            b2 = combine(b2, p2.b);
            a3 = combine(a3, p3.a);
            b3 = combine(b3, p3.b);
            j += 4u * slices;
            k += 4u * step;
        }
        while j < end {
            let p0 = load2(k, j);
            a0 = combine(a0, p0.a);
            b0 = combine(b0, p0.b);
            j += slices;
            k += step;
        }
        a0 = combine(combine(a0, a1), combine(a2, a3));
        b0 = combine(combine(b0, b1), combine(b2, b3));
    }
    scratch[lid] = a0;
    scratch_b[lid] = b0;
    workgroupBarrier();
    for (var s = slices / 2u; s > 0u; s = s >> 1u) {
        if ty < s {
            scratch[lid] = combine(scratch[lid], scratch[lid + s * cols]);
            scratch_b[lid] = combine(scratch_b[lid], scratch_b[lid + s * cols]);
        }
        workgroupBarrier();
    }
    if ty == 0u && i < inner {
        let out = (o * params.splits + split) * inner + i;
        store(out, scratch[lid]);
        store(out + 1u, scratch_b[lid]);
    }
}

struct Pair { a: S, b: S }

// Both halves of the word at even element k (the planner keeps k even), from one load: two loads
// of k and k + 1 would cost two load instructions per word.
fn load2(k0: u32, j0: u32) -> Pair {
    let k = params.src_base + k0;
    let j = params.j_base + j0;
    let w = src[k >> 1u];
    return Pair(from_elem(half_at(w, 0u), j), from_elem(half_at(w, 1u), j));
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    reduce_col_pairs(lid, wid);
}
