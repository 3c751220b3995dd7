// Scan output element by element (tile totals, or a buffer not padded to 16 bytes).
@group(0) @binding(2) var<storage, read_write> dst: array<R>;
fn store_elem(e: u32, v: V) { dst[e] = out_v(v); }
fn store_slot(q: u32, v: vec4<V>) {
    let r = out_v4(v);
    for (var c = 0u; c < 4u; c += 1u) {
        dst[4u * q + c] = r[c];
    }
}
