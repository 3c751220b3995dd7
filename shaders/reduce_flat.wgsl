// Flat layout: the first pass of argmin/argmax over a whole f32 array (added to the source of
// reduce_axis.wgsl for that layout only).
//
// Specialised by a prelude (see src/kernels.rs) that also defines:
//   var src_vec: array<vec4<f32>>   the input as vec4 words (binding 0)
//   const KEY_NAN: i32, KEY_ID: i32  the key every NaN gets (it beats everything), and a key
//                                    that everything beats
//   fn better4(k: vec4<i32>, best: vec4<i32>) -> vec4<bool>   k strictly better than best
//
// Like the whole-array kernel: `groups` workgroups stride over the input as vec4 words, four
// independent loads in flight per step. Each lane of a thread keeps the best key it has seen and
// its word index: keys are order-preserving signed integers (three operations, with -0.0 mapped
// onto +0.0 and every NaN onto KEY_NAN), so a step is a handful of integer operations where
// comparing exact float keys element by element costs several times more (this pass is then
// ALU-bound on the H200). Indices grow along a lane, so a strict comparison keeps the first of
// equal keys: the first NaN, the lowest index of ties. A thread's four accumulators merge lane
// by lane as keys, then its four lanes and the workgroup's threads combine as states (combine()
// orders them totally). Each workgroup writes one state:
// dst[dst_base + workgroup id].

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
    let stride = params.groups * WG;
    let n_vec = params.r / 4u;
    var b0 = Best(vec4<i32>(KEY_ID), vec4<u32>(0xffffffffu));
    var b1 = b0;
    var b2 = b0;
    var b3 = b0;
    var w = g * WG + lid;
    while w + 3u * stride < n_vec {
        b0 = best_step(b0, src_vec[w], w);
        b1 = best_step(b1, src_vec[w + stride], w + stride);
        b2 = best_step(b2, src_vec[w + 2u * stride], w + 2u * stride);
        b3 = best_step(b3, src_vec[w + 3u * stride], w + 3u * stride);
        w += 4u * stride;
    }
    while w < n_vec {
        b0 = best_step(b0, src_vec[w], w);
        w += stride;
    }
    let b = best_merge(best_merge(b0, b1), best_merge(b2, b3));
    var acc = combine(combine(best_state(b, 0u), best_state(b, 1u)), combine(best_state(b, 2u), best_state(b, 3u)));
    let t = n_vec * 4u + lid;
    if g == 0u && lid < 3u && t < params.r {
        acc = combine(acc, load(t, t));
    }
    scratch[lid] = acc;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s >> 1u) {
        if lid < s {
            scratch[lid] = combine(scratch[lid], scratch[lid + s]);
        }
        workgroupBarrier();
    }
    if lid == 0u {
        store(g, scratch[0]);
    }
}

@group(0) @binding(0) var<storage, read> src_vec: array<vec4<f32>>;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    reduce_flat(lid, wid);
}
