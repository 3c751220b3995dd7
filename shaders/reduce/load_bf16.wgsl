// bf16 input of the whole-array kernel: eight elements per vec4 word, widened to f32.
fn load4(x: vec4<T>) -> vec4<A> { return combine4(bf16_lo4(x), bf16_hi4(x)); }
fn load_elem(t: u32) -> A { return bf16_at(src[t >> 1u], t); }
// The bits of +inf, and the value of 16-bit bits h (for min/max by keys, shared/keys16.wgsl).
const HALF_INF_BITS: u32 = 0x7f80u;
fn half_value(h: u32) -> A { return bf16_at(h, 0u); }
