// aminmax: states (minimum, maximum) in one pass, with the value type's pick_lo and pick_hi
// (shaders/shared/type_*.wgsl: NaN wins for floats). A final pass writes the pair as a vec2.
struct MinMaxState { lo: V, hi: V }
alias S = MinMaxState;
fn identity() -> S { return S(highest(), lowest()); }
fn combine(a: S, b: S) -> S { return S(pick_lo(a.lo, b.lo), pick_hi(a.hi, b.hi)); }
fn from_elem(x: V, j: u32) -> S { return S(x, x); }
fn finalize(s: S) -> vec2<V> { return vec2<V>(s.lo, s.hi); }
