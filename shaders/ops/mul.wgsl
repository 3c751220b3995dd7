// Multiplication over the value type A (integers wrap modulo 2^32).
fn identity() -> A { return A(1); }
fn combine(a: A, b: A) -> A { return a * b; }
fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A> { return a * b; }
