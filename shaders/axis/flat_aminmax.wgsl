// aminmax in the flat first pass (axis/flat.wgsl): per lane, the least and the greatest
// order-preserving signed integer key (`i ^ ((i >> 31) & 0x7fffffff)`, its own inverse). A NaN's
// key lies outside the keys of -inf..+inf (above +inf's for a NaN whose sign bit is clear, below
// -inf's for one whose sign bit is set), so the greatest key exceeds +inf's or the least is below
// -inf's exactly when a NaN was read (then both results are NaN, as ops/aminmax.wgsl's picks make
// them). Keys order -0.0 below +0.0, so the minimum (maximum) of zeros of both signs is -0.0
// (+0.0): either is an exact answer.

struct MinMaxKeys {
    lo: vec4<i32>,
    hi: vec4<i32>,
}
alias F = MinMaxKeys;

// The keys of +inf and -inf.
const KEY_INF: i32 = 2139095040i;
const KEY_NEG_INF: i32 = -2139095041i;

fn minmax_key4(x: vec4<f32>) -> vec4<i32> {
    let i = bitcast<vec4<i32>>(x);
    return i ^ ((i >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff));
}

fn minmax_unkey(k: i32) -> f32 {
    return bitcast<f32>(k ^ ((k >> 31u) & 0x7fffffff));
}

// Every lane starts from +inf's key (least) and -inf's (greatest): aminmax's identity.
fn flat_identity() -> F {
    return F(vec4<i32>(KEY_INF), vec4<i32>(KEY_NEG_INF));
}

fn flat_step(a: F, x: vec4<f32>, w: u32) -> F {
    let k = minmax_key4(x);
    return F(min(a.lo, k), max(a.hi, k));
}

fn flat_merge(a: F, b: F) -> F {
    return F(min(a.lo, b.lo), max(a.hi, b.hi));
}

fn flat_state(a: F) -> S {
    let lo = min(min(a.lo.x, a.lo.y), min(a.lo.z, a.lo.w));
    let hi = max(max(a.hi.x, a.hi.y), max(a.hi.z, a.hi.w));
    if hi > KEY_INF || lo < KEY_NEG_INF {
        return S(quiet_nan(), quiet_nan());
    }
    return S(minmax_unkey(lo), minmax_unkey(hi));
}

// A state as words, for the one-pass finish (axis/flat.wgsl).
const STATE_WORDS: u32 = 2u;
fn state_words(s: S) -> StateWords {
    return StateWords(bitcast<u32>(s.lo), bitcast<u32>(s.hi), 0u);
}
fn state_of(w: StateWords) -> S {
    return S(bitcast<V>(w[0]), bitcast<V>(w[1]));
}
