// Converts `n` f32 values to 16-bit floats packed two to a u32 word (element 2w in the low half
// of word w). One thread per word, so no two threads write the same word. The prelude defines
// `const WG` and `fn convert(x: f32) -> u32` (f32_to_f16_bits or f32_to_bf16_bits).

struct PackParams {
    n: u32,
    groups_x: u32,
    pad0: u32,
    pad1: u32,
    pad: array<vec4<u32>, 3>,
}

@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<uniform> params: PackParams;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let w = (wid.y * params.groups_x + wid.x) * WG + lid;
    let e = 2u * w;
    if e >= params.n {
        return;
    }
    var hi = 0u;
    if e + 1u < params.n {
        hi = convert(src[e + 1u]);
    }
    dst[w] = convert(src[e]) | (hi << 16u);
}
