// The 2-norm in the flat first pass (reduce_flat.wgsl): ops/norm2.wgsl's three sums of squares,
// kept per lane of a vec4 word. A word whose four magnitudes all lie in the middle range adds
// their squares to the middle sums (a multiply-add each); any other word sorts each lane: above
// 2^47 into the big sums scaled by 2^-82, the rest of what is not in the middle (below 2^-60,
// or NaN, which fails every comparison) into the small sums scaled by 2^64.

struct Norm2Lanes {
    small: vec4<f32>,
    mid: vec4<f32>,
    big: vec4<f32>,
}
alias F = Norm2Lanes;

fn flat_identity() -> F {
    return F(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
}

fn flat_step(s: F, x: vec4<f32>, w: u32) -> F {
    let a = abs(x);
    let mid = (a >= vec4<f32>(NORM2_SMALL)) & (a <= vec4<f32>(NORM2_BIG));
    if all(mid) {
        return F(s.small, fma(a, a, s.mid), s.big);
    }
    let big = a > vec4<f32>(NORM2_BIG);
    let small = !(mid | big);
    let up = a * NORM2_UP;
    let down = a * NORM2_DOWN;
    let zero = vec4<f32>(0.0);
    return F(
        s.small + select(zero, up * up, small),
        s.mid + select(zero, a * a, mid),
        s.big + select(zero, down * down, big),
    );
}

fn flat_merge(a: F, b: F) -> F {
    return F(a.small + b.small, a.mid + b.mid, a.big + b.big);
}

fn lanes_sum(v: vec4<f32>) -> f32 {
    return (v.x + v.y) + (v.z + v.w);
}

fn flat_state(s: F) -> S {
    return S(lanes_sum(s.small), lanes_sum(s.mid), lanes_sum(s.big));
}
