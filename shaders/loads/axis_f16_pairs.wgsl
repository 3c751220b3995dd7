// Half h (0 or 1) of a word of f16 input, for the column-pairs layout.
fn half_at(w: u32, h: u32) -> E { return f16_at(w, h); }
