// A thread's running state in the whole-array kernel (reduce/reduce.wgsl): four accumulators, one per
// vec4 lane, combined with combine4.
alias S = vec4<A>;
fn s_identity() -> S { return vec4<A>(identity()); }
fn s_add(s: S, x: vec4<T>) -> S { return combine4(s, load4(x)); }
fn s_merge(a: S, b: S) -> S { return combine4(a, b); }
fn s_finish(v: S) -> A { return combine(combine(v.x, v.y), combine(v.z, v.w)); }
