// The offsets check of a segmented reduction: dst[0] becomes the lowest s whose segment ends
// before it starts (offsets[s + 1] < offsets[s]) or past the values (offsets[s + 1] > values),
// or 0 if the first offset is past the values (with no segment too); it stays 0xffffffff (set
// before) when every offset is valid. Uses the fill kernel's parameters: n = segments, value =
// elements of the values; at least one workgroup runs.

struct FillParams {
    n: u32,
    groups_x: u32,
    value: u32,
    pad0: u32,
    pad: array<vec4<u32>, 3>,
}

@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: FillParams;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let s = (wid.y * params.groups_x + wid.x) * 256u + lid;
    if s == 0u && offsets[0] > params.value {
        atomicMin(&dst[0], 0u);
    }
    if s < params.n {
        let a = offsets[s];
        let b = offsets[s + 1u];
        if b < a || b > params.value {
            atomicMin(&dst[0], s);
        }
    }
}
