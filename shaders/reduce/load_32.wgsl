// 32-bit input of the whole-array kernel: four elements per vec4 word.
fn load4(x: vec4<T>) -> vec4<A> { return vec4<A>(x); }
fn load_elem(t: u32) -> A { return A(src[t]); }
