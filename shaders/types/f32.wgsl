// Bounds and comparison keys of f32 values.
fn lowest() -> f32 { return neg_inf(); }
fn highest() -> f32 { return pos_inf(); }
fn has_nan(v: f32) -> bool { return is_nan(v); }
fn arg_key(v: f32) -> u32 { return fkey(v); }
