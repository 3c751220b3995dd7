// Variance (and, with STD, standard deviation): Welford states (count, mean, M2) of f32 values,
// combined with Chan et al.'s parallel formula. The prelude sets `const STD: bool`.
struct VarState { n: u32, mean: f32, m2: f32 }
alias S = VarState;
fn identity() -> S { return S(0u, 0.0, 0.0); }
fn combine(a: S, b: S) -> S {
    if a.n == 0u { return b; }
    if b.n == 0u { return a; }
    let n = a.n + b.n;
    let fa = f32(a.n);
    let fb = f32(b.n);
    let nt = f32(n);
    let d = b.mean - a.mean;
    return S(n, a.mean + d * (fb / nt), a.m2 + b.m2 + d * d * (fa * (fb / nt)));
}
fn from_elem(x: f32, j: u32) -> S { return S(1u, x, 0.0); }
// The divisor is n - correction; with none left (n <= correction) the result is NaN for an M2
// of 0 and +inf otherwise (0 / 0 and M2 / 0, as PyTorch gives), and std's root is taken only
// of a finite value: WGSL leaves division by zero and sqrt of NaN or inf undefined. An infinite
// element makes the mean infinite or NaN; the variance is then NaN (as two-pass formulas and
// PyTorch give), not M2's infinity.
fn finalize(s: S) -> f32 {
    let d = max(f32(s.n) - params.correction, 0.0);
    var v = select(pos_inf(), quiet_nan(), s.m2 == 0.0);
    if d > 0.0 {
        let q = s.m2 / d;
        v = select(q, sqrt(q), STD && (bitcast<u32>(q) & 0x7fffffffu) < 0x7f800000u);
    }
    return select(v, quiet_nan(), (bitcast<u32>(s.mean) & 0x7f800000u) == 0x7f800000u);
}
