// Argmin/argmax in the flat first pass (axis/flat.wgsl). Each lane of a thread keeps the best
// key it has seen and its word index: keys are order-preserving signed integers (three
// operations, with -0.0 mapped onto +0.0 and every NaN onto KEY_NAN). Indices grow along a
// lane, so a strict comparison keeps the first of equal keys: the first NaN, the lowest index
// of ties. A thread's four running values merge lane by lane as keys, then its four lanes
// combine as states (combine() of ops/arg.wgsl orders them totally).

// The key every NaN gets (it beats everything), and a key that everything beats.
const KEY_NAN: i32 = select(-2147483647i - 1i, 0x7fffffffi, ARGMAX);
const KEY_ID: i32 = select(0x7fffffffi, -2147483647i - 1i, ARGMAX);

// k strictly better than best, lane by lane.
fn better4(k: vec4<i32>, best: vec4<i32>) -> vec4<bool> {
    return select((k < best), (k > best), vec4<bool>(ARGMAX));
}

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
alias F = Best;

fn flat_identity() -> F {
    return Best(vec4<i32>(KEY_ID), vec4<u32>(0xffffffffu));
}

fn flat_step(b: F, x: vec4<f32>, w: u32) -> F {
    let k = arg_key4(x);
    let take = better4(k, b.k);
    return Best(select(b.k, k, take), select(b.w, vec4<u32>(w), take));
}

// Lane by lane, the better of two candidates (the lower index of equal keys).
fn flat_merge(a: F, b: F) -> F {
    let take = better4(b.k, a.k) | ((b.k == a.k) & (b.w < a.w));
    return Best(select(a.k, b.k, take), select(a.w, b.w, take));
}

fn best_state(b: F, c: u32) -> S {
    if b.w[c] == 0xffffffffu {
        return identity();
    }
    return S(arg_unkey(b.k[c]), params.j_base + b.w[c] * 4u + c);
}

fn flat_state(b: F) -> S {
    let lo = combine(best_state(b, 0u), best_state(b, 1u));
    return combine(lo, combine(best_state(b, 2u), best_state(b, 3u)));
}

// A state as words, for the one-pass finish (axis/flat.wgsl).
const STATE_WORDS: u32 = 2u;
fn state_words(s: S) -> StateWords {
    return StateWords(bitcast<u32>(s.v), s.i, 0u);
}
fn state_of(w: StateWords) -> S {
    return S(bitcast<V>(w[0]), w[1]);
}
