// Maximum of integers (A is i32 or u32).
fn identity() -> A { return lowest(); }
fn combine(a: A, b: A) -> A { return max(a, b); }
fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A> { return max(a, b); }
