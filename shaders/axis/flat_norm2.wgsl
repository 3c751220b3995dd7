// The 2-norm in the flat first pass (axis/flat.wgsl): ops/norm2.wgsl's three sums of squares.
// The middle sum is kept per lane of a vec4 word; the small and big sums, which only words with
// a magnitude outside the middle range reach, are kept as one scalar each (fewer registers for
// the four running values of a thread). A word whose four magnitudes all lie in the middle range
// (its smallest and largest, found by min and max, do) adds their squares to the middle sums (a
// multiply-add each); any other word sorts each lane:
// above 2^47 into the big sum scaled by 2^-82, the rest of what is not in the middle (below
// 2^-60, or NaN, which fails every comparison) into the small sum scaled by 2^86, subnormals
// from their bits (ops/norm2.wgsl says why).

struct Norm2Lanes {
    mid: vec4<f32>,
    small: f32,
    big: f32,
}
alias F = Norm2Lanes;

fn flat_identity() -> F {
    return F(vec4<f32>(0.0), 0.0, 0.0);
}

fn lanes_sum(v: vec4<f32>) -> f32 {
    return (v.x + v.y) + (v.z + v.w);
}

fn flat_step(s: F, x: vec4<f32>, w: u32) -> F {
    let a = abs(x);
    // The word's largest and smallest magnitudes decide the common case (a NaN that min or max
    // passes over lands in the middle sums through the multiply-add; one they return fails the
    // test and is sorted below).
    let hi = max(max(a.x, a.y), max(a.z, a.w));
    let lo = min(min(a.x, a.y), min(a.z, a.w));
    if lo >= NORM2_SMALL && hi <= NORM2_BIG {
        return F(fma(a, a, s.mid), s.small, s.big);
    }
    let mid = (a >= vec4<f32>(NORM2_SMALL)) & (a <= vec4<f32>(NORM2_BIG));
    let big = a > vec4<f32>(NORM2_BIG);
    let small = !(mid | big);
    let bits = bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu);
    let up = select(
        a * NORM2_UP,
        vec4<f32>(bits) * NORM2_SUBNORMAL_UP,
        bits < vec4<u32>(0x00800000u),
    );
    let down = a * NORM2_DOWN;
    let zero = vec4<f32>(0.0);
    return F(
        s.mid + select(zero, a * a, mid),
        s.small + lanes_sum(select(zero, up * up, small)),
        s.big + lanes_sum(select(zero, down * down, big)),
    );
}

fn flat_merge(a: F, b: F) -> F {
    return F(a.mid + b.mid, a.small + b.small, a.big + b.big);
}

fn flat_state(s: F) -> S {
    return S(s.small, lanes_sum(s.mid), s.big);
}

// A state as words, for the one-pass finish (axis/flat.wgsl).
const STATE_WORDS: u32 = 3u;
fn state_words(s: S) -> StateWords {
    return StateWords(bitcast<u32>(s.small), bitcast<u32>(s.mid), bitcast<u32>(s.big));
}
fn state_of(w: StateWords) -> S {
    return S(bitcast<f32>(w[0]), bitcast<f32>(w[1]), bitcast<f32>(w[2]));
}
