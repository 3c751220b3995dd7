// Sets `n` u32 words of dst to `value` (clears look-back status before a single-pass scan).

struct FillParams {
    n: u32,
    groups_x: u32,
    value: u32,
    pad0: u32,
    pad: array<vec4<u32>, 3>,
}

@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<uniform> params: FillParams;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let w = (wid.y * params.groups_x + wid.x) * 256u + lid;
    if w < params.n {
        dst[w] = params.value;
    }
}
