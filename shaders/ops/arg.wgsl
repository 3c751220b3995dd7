// Argmin and argmax (the prelude sets `const ARGMAX: bool`): states (value, index). The first
// NaN wins (PyTorch's rule); then the smallest (largest) value; ties go to the lowest index. A
// total order, so the result does not depend on the order of combination. Float values compare
// as exact integer keys (arg_key, from the value type's file in shaders/shared/type_*.wgsl).
struct ArgState { v: V, i: u32 }
alias S = ArgState;
fn identity() -> S { return S(select(highest(), lowest(), ARGMAX), 0xffffffffu); }
fn combine(a: S, b: S) -> S {
    let an = has_nan(a.v);
    let bn = has_nan(b.v);
    if an || bn {
        if bn && (!an || b.i < a.i) { return b; }
        return a;
    }
    let kb = arg_key(b.v);
    let ka = arg_key(a.v);
    if select((kb < ka), (kb > ka), ARGMAX) { return b; }
    if kb == ka && b.i < a.i { return b; }
    return a;
}
fn from_elem(x: V, j: u32) -> S { return S(x, j); }
fn finalize(s: S) -> u32 { return s.i; }
