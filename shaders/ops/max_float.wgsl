// Maximum of f32 values; NaN propagates (see min_float.wgsl).
fn identity() -> A { return neg_inf(); }
fn combine(a: A, b: A) -> A { return select(select(fmax_exact(a, b), b, is_nan(b)), a, is_nan(a)); }
fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A> {
    return select(select(fmax4_exact(a, b), b, is_nan4(b)), a, is_nan4(a));
}
