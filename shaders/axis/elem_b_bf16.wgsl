// The second input of a dot product (same element type and window as the first), bound where
// the whole-array kernel binds its vec4 view of the input.
@group(0) @binding(0) var<storage, read> src_b: array<SRC>;
fn elem_b_at(k: u32) -> E { return bf16_at(src_b[k >> 1u], k); }
