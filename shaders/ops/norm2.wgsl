// The 2-norm with scaling, as BLAS nrm2 but with power-of-two scales: states (e, ssq) standing
// for 4^e * ssq, where |x| = m * 2^e with m in [0.5, 1) (frexp) for the largest |x| seen, and
// ssq in [0.25, n]. Terms are rescaled by ldexp, which is exact, so no square overflows or
// underflows for finite input and no reciprocal of a huge scale is formed (a driver that flushes
// subnormals, as NVIDIA's does, turns 1 / 3e38 into 0). The exponent e is an integer held as
// f32: -inf before any non-zero element, NaN once a NaN is seen (it propagates), +inf once an
// infinite element is (the norm is +inf).
struct Norm2State { e: f32, ssq: f32 }
alias S = Norm2State;
fn identity() -> S { return S(neg_inf(), 0.0); }
fn combine(a: S, b: S) -> S {
    if is_nan(a.e) { return a; }
    if is_nan(b.e) { return b; }
    if a.e == pos_inf() || b.e == pos_inf() { return S(pos_inf(), 1.0); }
    if b.e == neg_inf() { return a; }
    if a.e == neg_inf() { return b; }
    if a.e >= b.e {
        return S(a.e, a.ssq + ldexp(b.ssq, 2i * i32(b.e - a.e)));
    }
    return S(b.e, b.ssq + ldexp(a.ssq, 2i * i32(a.e - b.e)));
}
fn from_elem(x: f32, j: u32) -> S {
    let a = abs(x);
    if is_nan(a) { return S(a, 1.0); }
    if a == pos_inf() { return S(pos_inf(), 1.0); }
    if a == 0.0 { return identity(); }
    let f = frexp(a);
    return S(f32(f.exp), f.fract * f.fract);
}
fn finalize(s: S) -> f32 {
    if is_nan(s.e) || s.e == pos_inf() { return s.e; }
    if s.e == neg_inf() { return 0.0; }
    let r = sqrt(s.ssq);
    let k = i32(s.e);
    // ldexp's exponent kept inside f32's range; the product over- or underflows as it should.
    if k > 64i { return ldexp(r, k - 64i) * 18446744073709551616.0; }
    if k < -64i { return ldexp(r, k + 64i) * 5.421010862427522e-20; }
    return ldexp(r, k);
}
