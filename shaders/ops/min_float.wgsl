// Minimum of f32 values. NaN propagates: WGSL's min may drop a NaN operand, so bits are tested
// (a bit test also survives fast-math compilation, unlike `x != x`), and values are compared as
// order-preserving integer keys, so subnormals are never flushed to zero (shared/common.wgsl).
fn identity() -> A { return pos_inf(); }
fn combine(a: A, b: A) -> A { return select(select(fmin_exact(a, b), b, is_nan(b)), a, is_nan(a)); }
fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A> {
    return select(select(fmin4_exact(a, b), b, is_nan4(b)), a, is_nan4(a));
}
