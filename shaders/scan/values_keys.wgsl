// Float min/max scans combine order-preserving i32 keys (`i ^ ((i >> 31) & 0x7fffffff)`, its own
// inverse, as reduce/state_keys.wgsl): one integer min/max per combine instead of two exact float
// keys and two NaN tests, which made these scans ALU-bound. A NaN read becomes the quiet NaN
// KEY_NAN_BITS, whose key lies beyond every other (ops/min_keys.wgsl, ops/max_keys.wgsl), so it
// propagates from its position on through plain integer min/max; results leave as the canonical
// quiet NaN 0x7fc00000. Keys order -0.0 below +0.0 (IEEE 754-2019 minimum and maximum).
fn identity() -> V { return key_identity(); }
fn combine(a: V, b: V) -> V { return key_pick(a, b); }
fn combine4(a: vec4<V>, b: vec4<V>) -> vec4<V> { return key_pick4(a, b); }
fn in_v(x: R) -> V {
    let b = bitcast<u32>(x);
    let i = bitcast<i32>(select(b, KEY_NAN_BITS, (b & 0x7fffffffu) > 0x7f800000u));
    return i ^ ((i >> 31u) & 0x7fffffff);
}
fn in_v4(x: vec4<R>) -> vec4<V> {
    let b = bitcast<vec4<u32>>(x);
    let n = (b & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);
    let i = bitcast<vec4<i32>>(select(b, vec4<u32>(KEY_NAN_BITS), n));
    return i ^ ((i >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff));
}
fn out_v(v: V) -> R {
    let b = bitcast<u32>(v ^ ((v >> 31u) & 0x7fffffff));
    return bitcast<R>(select(b, 0x7fc00000u, (b & 0x7fffffffu) > 0x7f800000u));
}
fn out_v4(v: vec4<V>) -> vec4<R> {
    let b = bitcast<vec4<u32>>(v ^ ((v >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff)));
    let n = (b & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);
    return bitcast<vec4<R>>(select(b, vec4<u32>(0x7fc00000u), n));
}
