// The p-norm's finish: the p-th root of the sum of |x|^p, in a final pass. NaN, +inf and 0
// are returned as they are, decided on the bits (WGSL leaves pow undefined for them).
fn finalize(a: A) -> A {
    let bits = bitcast<u32>(a) & 0x7fffffffu;
    if (params.flags & FINAL) != 0u && bits != 0u && bits < 0x7f800000u {
        return pow(a, 1.0 / params.power);
    }
    return a;
}
