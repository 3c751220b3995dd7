// The 2-norm with scaling, as BLAS nrm2: states (scale, ssq) standing for scale^2 * ssq, with
// scale the largest |x| seen and ssq in [1, n]. Every term is divided by the scale before it is
// squared, so no square overflows or underflows for finite input; the result scale * sqrt(ssq)
// is finite whenever the norm is. NaN propagates; an infinite element gives +inf.
struct Norm2State { scale: f32, ssq: f32 }
alias S = Norm2State;
fn identity() -> S { return S(0.0, 0.0); }
fn combine(a: S, b: S) -> S {
    if is_nan(a.scale) { return a; }
    if is_nan(b.scale) { return b; }
    if a.scale == pos_inf() || b.scale == pos_inf() { return S(pos_inf(), 1.0); }
    if b.scale == 0.0 { return a; }
    if a.scale == 0.0 { return b; }
    if a.scale >= b.scale {
        let r = b.scale / a.scale;
        return S(a.scale, a.ssq + b.ssq * (r * r));
    }
    let r = a.scale / b.scale;
    return S(b.scale, b.ssq + a.ssq * (r * r));
}
fn from_elem(x: f32, j: u32) -> S {
    let a = abs(x);
    return S(a, select(1.0, 0.0, a == 0.0));
}
fn finalize(s: S) -> f32 { return s.scale * sqrt(s.ssq); }
