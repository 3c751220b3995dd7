// Minimum of integers (A is i32 or u32).
fn identity() -> A { return highest(); }
fn combine(a: A, b: A) -> A { return min(a, b); }
fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A> { return min(a, b); }
