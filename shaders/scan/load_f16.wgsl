// f16 input of a scan pass (two to a u32 word; bindings in the prelude): slots of four
// elements as one vec2<u32> load.
fn raw_elem(e: u32) -> R { return f16_at(src[e >> 1u], e); }
fn raw_slot(q: u32) -> vec4<R> { return f16_four(src_vec[q]); }
