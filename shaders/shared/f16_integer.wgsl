// f16 widening in integer arithmetic (added to every kernel's source on devices without WGSL's
// unpack2x16float: some GL devices lack the downlevel capability; see F16Widening in
// src/kernels/mod.rs). Exact: every f16, subnormals included, is a normal f32.

// binary16 bits (low 16 bits of h) to f32.
fn f16_bits_to_f32(h: u32) -> f32 {
    let sign = (h & 0x8000u) << 16u;
    let e = (h >> 10u) & 0x1fu;
    let m = h & 0x3ffu;
    let normal = bitcast<f32>(sign | ((e + 112u) << 23u) | (m << 13u));
    let special = bitcast<f32>(sign | 0x7f800000u | (m << 13u));
    let sub = bitcast<f32>(sign | bitcast<u32>(f32(m) * 5.9604644775390625e-8));
    return select(select(normal, special, e == 31u), sub, e == 0u);
}

fn f16_bits_to_f32_4(h: vec4<u32>) -> vec4<f32> {
    let sign = (h & vec4<u32>(0x8000u)) << vec4<u32>(16u);
    let e = (h >> vec4<u32>(10u)) & vec4<u32>(0x1fu);
    let m = h & vec4<u32>(0x3ffu);
    let normal = bitcast<vec4<f32>>(sign | ((e + vec4<u32>(112u)) << vec4<u32>(23u)) | (m << vec4<u32>(13u)));
    let special = bitcast<vec4<f32>>(sign | vec4<u32>(0x7f800000u) | (m << vec4<u32>(13u)));
    let sub = bitcast<vec4<f32>>(sign | bitcast<vec4<u32>>(vec4<f32>(m) * 5.9604644775390625e-8));
    return select(select(normal, special, e == vec4<u32>(31u)), sub, e == vec4<u32>(0u));
}

// Element k of a packed 16-bit array, given the word that holds it (little-endian halves).
fn f16_at(w: u32, k: u32) -> f32 {
    return f16_bits_to_f32(select(w & 0xffffu, w >> 16u, (k & 1u) != 0u));
}

// Even (lo) and odd (hi) elements of four packed words.
fn f16_lo4(x: vec4<u32>) -> vec4<f32> {
    return f16_bits_to_f32_4(x & vec4<u32>(0xffffu));
}

fn f16_hi4(x: vec4<u32>) -> vec4<f32> {
    return f16_bits_to_f32_4(x >> vec4<u32>(16u));
}

// The four elements of two packed words, in order.
fn f16_four(w: vec2<u32>) -> vec4<f32> {
    return f16_bits_to_f32_4(vec4<u32>(w.x & 0xffffu, w.x >> 16u, w.y & 0xffffu, w.y >> 16u));
}
