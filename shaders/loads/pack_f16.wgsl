// The packing kernel's conversion to f16 bits (round to nearest even).
fn convert(x: f32) -> u32 { return f32_to_f16_bits(x); }
