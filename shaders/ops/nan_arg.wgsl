// nanargmin and nanargmax (the prelude sets `const ARGMAX: bool`): states (value, index) where a
// NaN loses to every number; among NaNs the lowest index wins, so the identity (NaN, MAX)
// loses to everything. Ties go to the lowest index. A slice of NaN only gives 0xffffffff.
struct ArgState { v: f32, i: u32 }
alias S = ArgState;
fn identity() -> S { return S(quiet_nan(), 0xffffffffu); }
fn combine(a: S, b: S) -> S {
    let an = is_nan(a.v);
    let bn = is_nan(b.v);
    if an || bn {
        if an && (!bn || b.i < a.i) { return b; }
        return a;
    }
    let kb = fkey(b.v);
    let ka = fkey(a.v);
    if select((kb < ka), (kb > ka), ARGMAX) { return b; }
    if kb == ka && b.i < a.i { return b; }
    return a;
}
fn from_elem(x: f32, j: u32) -> S { return S(x, j); }
fn finalize(s: S) -> u32 { return select(s.i, 0xffffffffu, is_nan(s.v)); }
