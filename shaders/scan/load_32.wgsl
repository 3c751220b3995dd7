// 32-bit input of a scan pass (bindings src_vec and src in the prelude): slots of four
// elements as one vec4 load.
fn raw_elem(e: u32) -> R { return R(src[e]); }
fn raw_slot(q: u32) -> vec4<R> { return vec4<R>(src_vec[q]); }
