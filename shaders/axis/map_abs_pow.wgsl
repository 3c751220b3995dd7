// The p-norm (p > 0 and finite): |x|^p for the p of the parameters. WGSL leaves pow undefined
// for NaN, infinities and 0 (it may be computed as exp2(p * log2(x)); lavapipe's pow(NaN, p)
// is 0), so those are decided on the bits first: NaN stays NaN, +-inf gives +inf, +-0 gives 0.
fn from_elem(x: E, j: u32) -> S {
    let a = abs(x);
    let bits = bitcast<u32>(a) & 0x7fffffffu;
    if bits > 0x7f800000u {
        return quiet_nan();
    }
    if bits == 0x7f800000u {
        return pos_inf();
    }
    if bits == 0u {
        return 0.0;
    }
    return pow(a, params.power);
}
