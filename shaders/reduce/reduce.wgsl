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
//                              integer keys, see reduce/state_keys.wgsl)
//
// Pass layout: `num_groups` workgroups stride over the input as vec4 words, four independent
// loads in flight per iteration; the (at most EPV - 1) elements after the last full vec4 word are
// read as scalars by workgroup 0. Each workgroup writes one value: dst[dst_base + workgroup id];
// or, with LAST_GROUP, the last workgroup to finish combines every workgroup's value and writes
// the result at dst[dst_base] (see finish).
//
// The workgroup step (reduce/group_tree.wgsl or reduce/group_subgroup.wgsl) defines the entry point and
//   fn group_reduce(l: Lanes, v: A) -> A   the combination of every invocation's `v`, valid
//                                          in invocation 0, in uniform control flow

// Params::flags bits (src/kernels/params.rs).
const FINAL: u32 = 1u;
const LAST_GROUP: u32 = 2u;
// Testing aid: a published value is never seen, so the last workgroup computes every
// workgroup's value again itself.
const HIDE_PARTIALS: u32 = 4u;

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
    // LAST_GROUP: reads of a workgroup's published value that is not visible yet before the
    // last workgroup computes that value again itself.
    spin_limit: u32,
    pad2: u32,
    // To 64 bytes, the size every kernel's parameters have.
    pad: array<vec4<u32>, 2>,
}

@group(0) @binding(0) var<storage, read> src_vec: array<vec4<T>>;
@group(0) @binding(1) var<storage, read> src: array<T>;
@group(0) @binding(2) var<storage, read_write> dst: array<A>;
@group(0) @binding(3) var<uniform> params: Params;
// LAST_GROUP: the count of finished workgroups (word 0), then two words per workgroup; zero
// before the pass (the context's clean states), and zeroed again by the last workgroup.
@group(0) @binding(4) var<storage, read_write> aux: array<atomic<u32>>;

// Where an invocation works: its index, and its subgroup's lane, size, index and count (the
// subgroup fields are unused by the tree step).
struct Lanes {
    lid: u32,
    lane: u32,
    size: u32,
    sg: u32,
    count: u32,
}

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

// A published value carries this flag in both of its words (16 bits of the value each, so that
// no 64-bit atomics are needed and a reader never takes half of one value).
const PUBLISHED: u32 = 0x80000000u;

var<workgroup> wg_flag: u32;
var<workgroup> wg_missing: atomic<u32>;
var<workgroup> wg_value: A;

fn publish(group: u32, v: A) {
    let b = bitcast<u32>(v);
    atomicStore(&aux[1u + 2u * group], PUBLISHED | (b & 0xffffu));
    atomicStore(&aux[2u + 2u * group], PUBLISHED | (b >> 16u));
}

struct Peek {
    ready: bool,
    value: A,
}

// Workgroup g's published value, read up to spin_limit + 1 times while it is not visible.
fn peek(g: u32) -> Peek {
    let hidden = (params.flags & HIDE_PARTIALS) != 0u;
    for (var k = 0u; k <= params.spin_limit; k += 1u) {
        let w0 = atomicLoad(&aux[1u + 2u * g]);
        let w1 = atomicLoad(&aux[2u + 2u * g]);
        if !hidden && (w0 & w1 & PUBLISHED) != 0u {
            return Peek(true, bitcast<A>((w0 & 0xffffu) | ((w1 & 0xffffu) << 16u)));
        }
    }
    return Peek(false, identity());
}

// Writes workgroup `group`'s value `v` (valid in invocation 0). With LAST_GROUP it publishes
// `v` instead and counts the workgroup done; the last to count combines every workgroup's value
// (invocation j takes j, j + WG, ... in order, then group_reduce), writes the result and zeroes
// the states. Nothing waits on another workgroup's progress: every other workgroup counted
// itself after publishing, and a value still not visible after spin_limit reads is computed
// again from the input, all of them in the same order, so the result is the same either way.
fn finish(l: Lanes, group: u32, v: A) {
    if (params.flags & LAST_GROUP) == 0u {
        if l.lid == 0u {
            dst[params.dst_base + group] = finalize(v);
        }
        return;
    }
    if l.lid == 0u {
        publish(group, v);
        wg_flag = select(0u, 1u, atomicAdd(&aux[0], 1u) == params.num_groups - 1u);
    }
    if workgroupUniformLoad(&wg_flag) == 0u {
        return;
    }
    var acc = identity();
    for (var j = l.lid; j < params.num_groups; j += WG) {
        let p = peek(j);
        if !p.ready {
            atomicStore(&wg_missing, 1u);
        }
        acc = combine(acc, p.value);
    }
    workgroupBarrier();
    if l.lid == 0u {
        wg_flag = atomicLoad(&wg_missing);
    }
    if workgroupUniformLoad(&wg_flag) != 0u {
        acc = identity();
        for (var g = 0u; g < params.num_groups; g += 1u) {
            let r = group_reduce(l, thread_partial(g, l.lid));
            if l.lid == 0u {
                wg_value = r;
            }
            let w = workgroupUniformLoad(&wg_value);
            if l.lid == g % WG {
                acc = combine(acc, w);
            }
        }
    }
    let r = group_reduce(l, acc);
    if l.lid == 0u {
        dst[params.dst_base] = finalize(r);
    }
    for (var j = l.lid; j <= 2u * params.num_groups; j += WG) {
        atomicStore(&aux[j], 0u);
    }
}
