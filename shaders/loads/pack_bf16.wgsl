// The packing kernel's conversion to bf16 bits (round to nearest even).
fn convert(x: f32) -> u32 { return f32_to_bf16_bits(x); }
