// A thread's running state for f32 min/max in the whole-array kernel: order-preserving signed
// integer keys (`i ^ ((i >> 31) & 0x7fffffff)`, its own inverse: three integer operations and a
// min or max per element) plus the largest magnitude bits seen, which exceed +inf's exactly when
// a NaN was read: a third of the work of comparing exact float keys element by element, which
// made these passes ALU-bound on the H200. Keys order -0.0 below +0.0, so a thread's min/max of
// zeros may be either zero (both are exact answers). key_* come from ops/min_keys.wgsl or
// ops/max_keys.wgsl.
struct S { k: vec4<i32>, m: vec4<u32> }
fn okey4(x: vec4<f32>) -> vec4<i32> {
    let i = bitcast<vec4<i32>>(x);
    return i ^ ((i >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff));
}
fn s_identity() -> S { return S(vec4<i32>(key_identity()), vec4<u32>(0u)); }
fn s_add(s: S, x: vec4<T>) -> S {
    return S(key_pick4(s.k, okey4(x)), max(s.m, bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu)));
}
fn s_merge(a: S, b: S) -> S { return S(key_pick4(a.k, b.k), max(a.m, b.m)); }
fn s_finish(s: S) -> A {
    let k = key_pick(key_pick(s.k.x, s.k.y), key_pick(s.k.z, s.k.w));
    let m = max(max(s.m.x, s.m.y), max(s.m.z, s.m.w));
    return select(bitcast<f32>(k ^ ((k >> 31u) & 0x7fffffff)), quiet_nan(), m > 0x7f800000u);
}
