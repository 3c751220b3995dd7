// 16-bit order-preserving keys of the two halves of u32 words of f16 or bf16 input, both halves
// at once in integer arithmetic (the input's load file sets HALF_INF_BITS, the bits of +inf; the
// prelude sets KEYS_MAX). As the f32 keys of shared/common.wgsl (fkey), the keys order the values
// exactly and -0 takes +0's key (the two are equal); a NaN's key is the largest (KEYS_MAX: max,
// argmax) or the smallest (min, argmin), so that a NaN wins. Used by the row pairs layout
// (axis/rows_pairs_keys.wgsl) and the whole-array kernel (reduce/state_keys16.wgsl).

// Both halves' keys. Per half, bit 15 of (h & 0x7fff) + 0x7fff is set where the magnitude is not
// zero, and of (h & 0x7fff) + 0x7fff - HALF_INF_BITS where the half is a NaN; no carry crosses
// from the low half into the high one (each sum is below 0x10000). Then a non-negative value's
// bits get the sign bit set and a negative value's bits are inverted.
fn keys2(w0: u32) -> u32 {
    let mag = w0 & 0x7fff7fffu;
    let nonzero = ((mag + 0x7fff7fffu) >> 15u) & 0x00010001u;
    let w = w0 & ~((nonzero ^ 0x00010001u) << 15u);
    let sign = (w >> 15u) & 0x00010001u;
    let k = w ^ ((sign * 0x7fffu) | 0x80008000u);
    let nan = (((mag + (0x7fffu - HALF_INF_BITS) * 0x00010001u) >> 15u) & 0x00010001u) * 0xffffu;
    return select(k & ~nan, k | nan, KEYS_MAX);
}

fn keys2_4(w0: vec4<u32>) -> vec4<u32> {
    let halves = vec4<u32>(0x00010001u);
    let mag = w0 & vec4<u32>(0x7fff7fffu);
    let nonzero = ((mag + vec4<u32>(0x7fff7fffu)) >> vec4<u32>(15u)) & halves;
    let w = w0 & ~((nonzero ^ halves) << vec4<u32>(15u));
    let sign = (w >> vec4<u32>(15u)) & halves;
    let k = w ^ ((sign * 0x7fffu) | vec4<u32>(0x80008000u));
    let gap = vec4<u32>((0x7fffu - HALF_INF_BITS) * 0x00010001u);
    let nan = (((mag + gap) >> vec4<u32>(15u)) & halves) * 0xffffu;
    return select(k & ~nan, k | nan, KEYS_MAX);
}

// The weakest key of any element: -inf's (KEYS_MAX) or +inf's.
fn key_start() -> u32 {
    return select(0x8000u | HALF_INF_BITS, 0x7fffu - HALF_INF_BITS, KEYS_MAX);
}

// The 16-bit value a key stands for (a NaN key gives a NaN's bits).
fn key_half_bits(k: u32) -> u32 {
    return select(k ^ 0xffffu, k ^ 0x8000u, k >= 0x8000u);
}
