// Mean's finish over segments: the sum divided by the segment's length (NaN for an empty one).
fn finalize(a: A) -> A {
    return select(a / A(segment_len), quiet_nan(), segment_len == 0u);
}
