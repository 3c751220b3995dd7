// nanmin and nanmax (the prelude sets `const PICK_MAX: bool`) of f32 values: a NaN operand
// loses to any other; the identity is NaN, so a slice of NaN only stays NaN. Compared as exact
// keys (shared/common.wgsl), so subnormals are never flushed.
fn identity() -> A { return quiet_nan(); }
fn combine(a: A, b: A) -> A {
    let m = select(fmin_exact(a, b), fmax_exact(a, b), PICK_MAX);
    return select(select(m, a, is_nan(b)), b, is_nan(a));
}
