// A 32-bit input element of the general kernel, as a value.
fn elem_at(k: u32) -> E { return E(src[k]); }
