// Scan output as vec4 slots (the buffer is padded to 16 bytes).
@group(0) @binding(2) var<storage, read_write> dst: array<vec4<R>>;
fn store_elem(e: u32, v: V) { dst[e >> 2u][e & 3u] = out_v(v); }
fn store_slot(q: u32, v: vec4<V>) { dst[q] = out_v4(v); }
