// all's finish: 1 or 0 (an empty reduction's identity, u32::MAX, is "all non-zero": 1).
fn finalize(a: A) -> A { return min(a, A(1)); }
