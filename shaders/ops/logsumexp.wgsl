// logsumexp in one pass: states (m, s) standing for s * exp(m), m the largest element seen.
// Combining rescales the smaller side's sum by exp(its m - the larger m) <= 1, so nothing
// overflows. The identity (-inf, 0) is the empty set. +inf anywhere gives +inf and NaN
// anywhere NaN (both kept in m with s = 1, NaN winning), so no inf - inf is ever formed.
struct LseState { m: f32, s: f32 }
alias S = LseState;
fn identity() -> S { return S(neg_inf(), 0.0); }
fn combine(a: S, b: S) -> S {
    if is_nan(a.m) { return a; }
    if is_nan(b.m) { return b; }
    if a.m == neg_inf() { return b; }
    if b.m == neg_inf() { return a; }
    if a.m == pos_inf() || b.m == pos_inf() { return S(pos_inf(), 1.0); }
    if a.m >= b.m { return S(a.m, a.s + b.s * exp(b.m - a.m)); }
    return S(b.m, b.s + a.s * exp(a.m - b.m));
}
fn from_elem(x: f32, j: u32) -> S { return S(x, 1.0); }
fn finalize(s: S) -> f32 {
    if s.m == neg_inf() || s.m == pos_inf() || is_nan(s.m) { return s.m; }
    return s.m + log(s.s);
}
