// Helpers shared by every kernel: NaN tests, exact float ordering, and 16-bit float conversions
// (no device feature needed: 16-bit values travel in u32 words; f16 widening is added per
// device, see F16Widening in src/kernels/mod.rs).

// Infinities and NaN are made at run time, from their bits through a function parameter: in
// WGSL a constant expression whose value is an infinity or a NaN is a shader-creation error
// (Chromium's compiler, Tint, enforces it), and a call of a user function is never a constant
// expression.
fn f32_from_bits(b: u32) -> f32 {
    return bitcast<f32>(b);
}

fn pos_inf() -> f32 {
    return f32_from_bits(0x7f800000u);
}

fn neg_inf() -> f32 {
    return f32_from_bits(0xff800000u);
}

// The canonical quiet NaN (0x7fc00000).
fn quiet_nan() -> f32 {
    return f32_from_bits(0x7fc00000u);
}

fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}

fn is_nan4(x: vec4<f32>) -> vec4<bool> {
    return (bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);
}

// Order-preserving map of f32 bits to u32 keys: comparing keys compares values exactly,
// whatever the device's float mode (GPUs may flush f32 subnormals to zero in min/max and
// comparisons: NVIDIA's Vulkan driver does). -0.0 maps to +0.0's key, so the two are equal, as
// IEEE comparison has it. NaNs are handled before keys are compared.
fn fkey(x: f32) -> u32 {
    let b = select(bitcast<u32>(x), 0u, (bitcast<u32>(x) & 0x7fffffffu) == 0u);
    return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

fn fkey4(x: vec4<f32>) -> vec4<u32> {
    let raw = bitcast<vec4<u32>>(x);
    let b = select(raw, vec4<u32>(0u), (raw & vec4<u32>(0x7fffffffu)) == vec4<u32>(0u));
    return select(b | vec4<u32>(0x80000000u), ~b, (b & vec4<u32>(0x80000000u)) != vec4<u32>(0u));
}

fn from_fkey(k: u32) -> f32 {
    return bitcast<f32>(select(~k, k & 0x7fffffffu, (k & 0x80000000u) != 0u));
}

fn fmin_exact(a: f32, b: f32) -> f32 {
    return select(a, b, fkey(b) < fkey(a));
}

fn fmax_exact(a: f32, b: f32) -> f32 {
    return select(a, b, fkey(b) > fkey(a));
}

fn fmin4_exact(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return select(a, b, fkey4(b) < fkey4(a));
}

fn fmax4_exact(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return select(a, b, fkey4(b) > fkey4(a));
}

// Element k of a packed bf16 array, given the word that holds it (little-endian halves). The
// f16 helpers (f16_at, f16_lo4, f16_hi4, f16_four) come from shared/f16_native.wgsl or shared/f16_integer.wgsl.
fn bf16_at(w: u32, k: u32) -> f32 {
    return bitcast<f32>(select(w << 16u, w & 0xffff0000u, (k & 1u) != 0u));
}

// Even (lo) and odd (hi) elements of four packed bf16 words.
fn bf16_lo4(x: vec4<u32>) -> vec4<f32> {
    return bitcast<vec4<f32>>(x << vec4<u32>(16u));
}

fn bf16_hi4(x: vec4<u32>) -> vec4<f32> {
    return bitcast<vec4<f32>>(x & vec4<u32>(0xffff0000u));
}

// f32 to binary16 bits, rounding to nearest even; overflow gives infinity, NaN stays NaN.
fn f32_to_f16_bits(x: f32) -> u32 {
    let b = bitcast<u32>(x);
    let sign = (b >> 16u) & 0x8000u;
    let e = (b >> 23u) & 0xffu;
    let m = b & 0x7fffffu;
    if e == 255u {
        return sign | 0x7c00u | select(0u, 0x200u | (m >> 13u), m != 0u);
    }
    let ue = i32(e) - 112;
    if ue >= 31 {
        return sign | 0x7c00u;
    }
    if ue <= 0 {
        if ue < -10 {
            return sign;
        }
        let mm = m | 0x800000u;
        let shift = u32(14 - ue);
        var h = mm >> shift;
        let rem = mm & ((1u << shift) - 1u);
        let half = 1u << (shift - 1u);
        if rem > half || (rem == half && (h & 1u) == 1u) {
            h += 1u;
        }
        return sign | h;
    }
    var h = (u32(ue) << 10u) | (m >> 13u);
    let rem = m & 0x1fffu;
    if rem > 0x1000u || (rem == 0x1000u && (h & 1u) == 1u) {
        h += 1u;
    }
    return sign | h;
}

// f32 to bfloat16 bits, rounding to nearest even; NaN stays a (quiet) NaN.
fn f32_to_bf16_bits(x: f32) -> u32 {
    let b = bitcast<u32>(x);
    if (b & 0x7fffffffu) > 0x7f800000u {
        return (b >> 16u) | 0x40u;
    }
    return (b + 0x7fffu + ((b >> 16u) & 1u)) >> 16u;
}

