// Bounds and comparison keys of i32 values.
fn lowest() -> i32 { return -2147483647i - 1i; }
fn highest() -> i32 { return 2147483647i; }
fn has_nan(v: i32) -> bool { return false; }
fn arg_key(v: i32) -> i32 { return v; }
fn pick_lo(a: i32, b: i32) -> i32 { return min(a, b); }
fn pick_hi(a: i32, b: i32) -> i32 { return max(a, b); }
