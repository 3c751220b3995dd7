// f16 widening with WGSL's unpack2x16float (added to every kernel's source where the device has
// it: see F16Widening in src/kernels/mod.rs). A hardware conversion (SPIR-V UnpackHalf2x16, Metal's
// half2 to float2, HLSL's f16tof32), exact for every f16, subnormals included (each is a normal
// f32; the tests check them). The integer widening (shared/f16_integer.wgsl) takes about 20 integer
// operations per element, which made f16 sums ALU-bound on the H200.

// Element k of a packed 16-bit array, given the word that holds it (little-endian halves).
fn f16_at(w: u32, k: u32) -> f32 {
    return unpack2x16float(w)[k & 1u];
}

// Even (lo) and odd (hi) elements of four packed words.
fn f16_lo4(x: vec4<u32>) -> vec4<f32> {
    return vec4<f32>(unpack2x16float(x.x).x, unpack2x16float(x.y).x, unpack2x16float(x.z).x, unpack2x16float(x.w).x);
}

fn f16_hi4(x: vec4<u32>) -> vec4<f32> {
    return vec4<f32>(unpack2x16float(x.x).y, unpack2x16float(x.y).y, unpack2x16float(x.z).y, unpack2x16float(x.w).y);
}

// The four elements of two packed words, in order.
fn f16_four(w: vec2<u32>) -> vec4<f32> {
    return vec4<f32>(unpack2x16float(w.x), unpack2x16float(w.y));
}
