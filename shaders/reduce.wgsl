// Whole-array reduction: the per-thread part, shared by both workgroup strategies.
//
// Composed with an operation's files (shaders/ops/), a state file and a workgroup step, after
// a prelude (src/kernels/reduce.rs) that defines:
//   alias T, alias A          word type in memory, accumulator type
//   const WG: u32              workgroup size (a power of two)
//   const EPV: u32             elements per vec4 word (4, or 8 for packed 16-bit floats)
//   fn identity() -> A         identity of the combine operation
//   fn load4(x: vec4<T>) -> vec4<A>  one vec4 word's elements, combined to four values
//   fn load_elem(t: u32) -> A  element t (for the tail)
//   fn combine(a: A, b: A) -> A, fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A>
//   fn finalize(a: A) -> A     applied to the value a workgroup writes (mean's division)
//   alias S                    a thread's running state over whole vec4 words, with
//   fn s_identity() -> S, fn s_add(s: S, x: vec4<T>) -> S, fn s_merge(a: S, b: S) -> S,
//   fn s_finish(s: S) -> A     (vec4<A> and combine4 for most operations; f32 min/max keep
//                              integer keys, see reduce_state_keys.wgsl)
//
// Pass layout: `num_groups` workgroups stride over the input as vec4 words, four independent
// loads in flight per iteration; the (at most EPV - 1) elements after the last full vec4 word are
// read as scalars by workgroup 0. Each workgroup writes one value: dst[dst_base + workgroup id].

// Params::flags bits (src/kernels/params.rs).
const FINAL: u32 = 1u;

struct Params {
    // Elements in the input.
    n: u32,
    // Full vec4 words in the input (n / EPV).
    n_vec: u32,
    // Workgroups in this dispatch.
    num_groups: u32,
    // Bit 0: this pass writes final results (apply finalize's division).
    flags: u32,
    // Mean's divisor (the element count of the whole reduction), as f32.
    divisor: f32,
    // Index of this dispatch's first output in `dst` (a reduction cut into pieces writes each
    // piece's value at its place).
    dst_base: u32,
    pad1: u32,
    pad2: u32,
    // To 64 bytes, the size every kernel's parameters have.
    pad: array<vec4<u32>, 2>,
}

@group(0) @binding(0) var<storage, read> src_vec: array<vec4<T>>;
@group(0) @binding(1) var<storage, read> src: array<T>;
@group(0) @binding(2) var<storage, read_write> dst: array<A>;
@group(0) @binding(3) var<uniform> params: Params;

fn thread_partial(group: u32, lid: u32) -> A {
    let stride = params.num_groups * WG;
    let n_vec = params.n_vec;
    var acc0 = s_identity();
    var acc1 = acc0;
    var acc2 = acc0;
    var acc3 = acc0;
    var i = group * WG + lid;
    while i + 3u * stride < n_vec {
        acc0 = s_add(acc0, src_vec[i]);
        acc1 = s_add(acc1, src_vec[i + stride]);
        acc2 = s_add(acc2, src_vec[i + 2u * stride]);
        acc3 = s_add(acc3, src_vec[i + 3u * stride]);
        i += 4u * stride;
    }
    while i < n_vec {
        acc0 = s_add(acc0, src_vec[i]);
        i += stride;
    }
    var a = s_finish(s_merge(s_merge(acc0, acc1), s_merge(acc2, acc3)));
    let t = n_vec * EPV + lid;
    if group == 0u && lid < EPV - 1u && t < params.n {
        a = combine(a, load_elem(t));
    }
    return a;
}
