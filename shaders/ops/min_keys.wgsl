// Minimum of f32 values as order-preserving i32 keys (reduce/state_keys.wgsl, scan/values_keys.wgsl).
// The identity is +inf's key; a scan's NaN is the quiet NaN whose key lies below every other.
fn key_identity() -> i32 { return 0x7f800000i; }
fn key_pick(a: i32, b: i32) -> i32 { return min(a, b); }
fn key_pick4(a: vec4<i32>, b: vec4<i32>) -> vec4<i32> { return min(a, b); }
const KEY_NAN_BITS: u32 = 0xffc00000u;
