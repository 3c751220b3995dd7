// An f16 input element of the general kernel (two to a u32 word), widened to f32.
fn elem_at(k: u32) -> E { return f16_at(src[k >> 1u], k); }
