// bf16 input of a scan pass (two to a u32 word; bindings in the prelude): slots of four
// elements as one vec2<u32> load.
fn raw_elem(e: u32) -> R { return bf16_at(src[e >> 1u], e); }
fn raw_slot(q: u32) -> vec4<R> {
    let w = src_vec[q];
    return bitcast<vec4<f32>>(vec4<u32>(w.x << 16u, w.x & 0xffff0000u, w.y << 16u, w.y & 0xffff0000u));
}
