// Scans that combine the values themselves (V is R): sums, and integer min/max.
fn in_v(x: R) -> V { return x; }
fn in_v4(x: vec4<R>) -> vec4<V> { return x; }
fn out_v(v: V) -> R { return v; }
fn out_v4(v: vec4<V>) -> vec4<R> { return v; }
