// Bounds and comparison keys of u32 values.
fn lowest() -> u32 { return 0u; }
fn highest() -> u32 { return 0xffffffffu; }
fn has_nan(v: u32) -> bool { return false; }
fn arg_key(v: u32) -> u32 { return v; }
fn pick_lo(a: u32, b: u32) -> u32 { return min(a, b); }
fn pick_hi(a: u32, b: u32) -> u32 { return max(a, b); }
