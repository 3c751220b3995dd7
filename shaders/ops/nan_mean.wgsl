// nanmean: states (sum, count) of the elements that are not NaN; NaN where the count is 0.
struct NanMeanState { s: f32, n: u32 }
alias S = NanMeanState;
fn identity() -> S { return S(0.0, 0u); }
fn combine(a: S, b: S) -> S { return S(a.s + b.s, a.n + b.n); }
fn from_elem(x: f32, j: u32) -> S {
    let nan = is_nan(x);
    return S(select(x, 0.0, nan), select(1u, 0u, nan));
}
fn finalize(s: S) -> f32 { return select(s.s / f32(s.n), quiet_nan(), s.n == 0u); }
