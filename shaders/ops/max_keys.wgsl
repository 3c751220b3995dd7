// Maximum of f32 values as order-preserving i32 keys (reduce/state_keys.wgsl, scan/values_keys.wgsl).
// The identity is -inf's key; a scan's NaN is the quiet NaN whose key lies above every other.
fn key_identity() -> i32 { return -2139095041i; }
fn key_pick(a: i32, b: i32) -> i32 { return max(a, b); }
fn key_pick4(a: vec4<i32>, b: vec4<i32>) -> vec4<i32> { return max(a, b); }
const KEY_NAN_BITS: u32 = 0x7fc00000u;
