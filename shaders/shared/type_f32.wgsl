// Bounds and comparison keys of f32 values.
fn lowest() -> f32 { return neg_inf(); }
fn highest() -> f32 { return pos_inf(); }
fn has_nan(v: f32) -> bool { return is_nan(v); }
fn arg_key(v: f32) -> u32 { return fkey(v); }
// aminmax's picks: NaN wins, exact comparison (shared/common.wgsl).
fn pick_lo(a: f32, b: f32) -> f32 { return select(select(fmin_exact(a, b), b, is_nan(b)), a, is_nan(a)); }
fn pick_hi(a: f32, b: f32) -> f32 { return select(select(fmax_exact(a, b), b, is_nan(b)), a, is_nan(a)); }
