// Flat layout: the first pass of argmin/argmax over f32 rows of whole vec4 words (added to the
// source of reduce_axis.wgsl for that layout only).
//
// Specialised by a prelude (see src/kernels.rs) that also defines:
//   var src_vec: array<vec4<f32>>   the input as vec4 words (binding 0)
//   const KEY_NAN: i32, KEY_ID: i32  the key every NaN gets (it beats everything), and a key
//                                    that everything beats
//   fn better4(k: vec4<i32>, best: vec4<i32>) -> vec4<bool>   k strictly better than best
//
// Like the whole-array kernel: `groups` workgroups stride over the input as vec4 words, four
// independent loads in flight per step. Rows (`outer` > 1, rows of a whole number of vec4 words
// that start on one): as in the rows layout, `lanes` threads share a row and reduce chunk
// `workgroup_id.z` (of `splits`, `chunk` elements each, a multiple of 4) of it with the same
// steps, writing state row * splits + chunk. Each lane of a thread keeps the best key it has seen and
// its word index: keys are order-preserving signed integers (three operations, with -0.0 mapped
// onto +0.0 and every NaN onto KEY_NAN), so a step is a handful of integer operations where
// comparing exact float keys element by element costs several times more (this pass is then
// ALU-bound on the H200). Indices grow along a lane, so a strict comparison keeps the first of
// equal keys: the first NaN, the lowest index of ties. A thread's four accumulators merge lane
// by lane as keys, then its four lanes and the workgroup's threads combine as states (combine()
// orders them totally). Each workgroup writes one state (or, where it has a whole row, the
// row's result) through store().

fn arg_key4(x: vec4<f32>) -> vec4<i32> {
    let i = bitcast<vec4<i32>>(x);
    let m = i >> vec4<u32>(31u);
    let k = (i ^ (m & vec4<i32>(0x7fffffff))) - m;
    let nan = (bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);
    return select(k, vec4<i32>(KEY_NAN), nan);
}

// The value of a key (a NaN for KEY_NAN; +0.0 for -0.0).
fn arg_unkey(k: i32) -> f32 {
    let k2 = k + (k >> 31u);
    return bitcast<f32>(k2 ^ ((k2 >> 31u) & 0x7fffffff));
}

struct Best {
    k: vec4<i32>,
    w: vec4<u32>,
}

fn best_step(b: Best, x: vec4<f32>, w: u32) -> Best {
    let k = arg_key4(x);
    let take = better4(k, b.k);
    return Best(select(b.k, k, take), select(b.w, vec4<u32>(w), take));
}

fn best_state(b: Best, c: u32) -> S {
    if b.w[c] == 0xffffffffu {
        return identity();
    }
    return S(arg_unkey(b.k[c]), params.j_base + b.w[c] * 4u + c);
}

// Lane by lane, the better of two candidates (the lower index of equal keys).
fn best_merge(a: Best, b: Best) -> Best {
    let take = better4(b.k, a.k) | ((b.k == a.k) & (b.w < a.w));
    return Best(select(a.k, b.k, take), select(a.w, b.w, take));
}

fn reduce_flat(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g >= params.groups {
        return;
    }
    let n_vec = params.r / 4u;
    // One row: every workgroup strides over all of it, and the tree below spans the workgroup.
    // Rows: `lanes` threads per row (WG / lanes rows per workgroup) stride over their chunk
    // of the row, and the tree spans each row's lanes.
    let shift = params.lanes_shift;
    let lanes = 1u << shift;
    let lane = lid & (lanes - 1u);
    var stride = params.groups * WG;
    var w = g * WG + lid;
    var end = n_vec;
    var row = 0u;
    var out = g;
    if params.outer > 1u {
        let r_index = (g << (WG_SHIFT - shift)) + (lid >> shift);
        let c = params.chunk / 4u;
        stride = lanes;
        row = r_index * n_vec;
        w = wid.z * c + lane;
        end = select(0u, min(wid.z * c + c, n_vec), r_index < params.outer);
        out = select(NO_OUTPUT, r_index * params.splits + wid.z, r_index < params.outer);
    }
    var b0 = Best(vec4<i32>(KEY_ID), vec4<u32>(0xffffffffu));
    var b1 = b0;
    var b2 = b0;
    var b3 = b0;
    while w + 3u * stride < end {
        b0 = best_step(b0, src_vec[row + w], w);
        b1 = best_step(b1, src_vec[row + w + stride], w + stride);
        b2 = best_step(b2, src_vec[row + w + 2u * stride], w + 2u * stride);
        b3 = best_step(b3, src_vec[row + w + 3u * stride], w + 3u * stride);
        w += 4u * stride;
    }
    while w < end {
        b0 = best_step(b0, src_vec[row + w], w);
        w += stride;
    }
    let b = best_merge(best_merge(b0, b1), best_merge(b2, b3));
    var acc = combine(combine(best_state(b, 0u), best_state(b, 1u)), combine(best_state(b, 2u), best_state(b, 3u)));
    // One row's last elements after its whole vec4 words (rows are whole words).
    let t = n_vec * 4u + lid;
    if g == 0u && lid < 3u && t < params.r && params.outer == 1u {
        acc = combine(acc, load(t, t));
    }
    scratch[lid] = acc;
    workgroupBarrier();
    for (var s = lanes / 2u; s > 0u; s = s >> 1u) {
        if lane < s {
            scratch[lid] = combine(scratch[lid], scratch[lid + s]);
        }
        workgroupBarrier();
    }
    if lane == 0u && out != NO_OUTPUT {
        store(out, scratch[lid]);
    }
}

// A thread of a row past the last: no output.
const NO_OUTPUT: u32 = 0xffffffffu;

@group(0) @binding(0) var<storage, read> src_vec: array<vec4<f32>>;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    reduce_flat(lid, wid);
}
