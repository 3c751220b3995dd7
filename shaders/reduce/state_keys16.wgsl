// A thread's running state for min/max of f16 and bf16 input in the whole-array kernel: the
// 16-bit keys of shared/keys16.wgsl, the low halves' and the high halves' apart: about a dozen integer
// operations per vec4 of four words (eight elements) and two integer min/max, where the value
// path widens all eight elements and compares them with NaN checks and exact f32 keys, which left
// these passes ALU-bound on the H200. The winner is widened once, by s_finish (half_value, from
// the input's load file).
struct S { lo: vec4<u32>, hi: vec4<u32> }
fn pick4(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> { return select(min(a, b), max(a, b), KEYS_MAX); }
fn pick(a: u32, b: u32) -> u32 { return select(min(a, b), max(a, b), KEYS_MAX); }
fn s_identity() -> S { return S(vec4<u32>(key_start()), vec4<u32>(key_start())); }
fn s_add(s: S, x: vec4<T>) -> S {
    let k = keys2_4(x);
    return S(pick4(s.lo, k & vec4<u32>(0xffffu)), pick4(s.hi, k >> vec4<u32>(16u)));
}
fn s_merge(a: S, b: S) -> S { return S(pick4(a.lo, b.lo), pick4(a.hi, b.hi)); }
fn s_finish(s: S) -> A {
    let m = pick4(s.lo, s.hi);
    return half_value(key_half_bits(pick(pick(m.x, m.y), pick(m.z, m.w))));
}
