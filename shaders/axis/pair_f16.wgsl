// Half h (0 or 1) of a word of f16 input, for the column-pairs layout.
fn half_at(w: u32, h: u32) -> E { return f16_at(w, h); }
// The bits of +inf (NaNs lie above them once the sign is cleared).
const HALF_INF_BITS: u32 = 0x7c00u;
