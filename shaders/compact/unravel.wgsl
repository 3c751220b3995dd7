// nonzero's indices per dimension: each kept flat index (`flat`, `count` of them) becomes its
// coordinates in three dimensions of the shape, from `first`, written at row j of `len`
// coordinates (one dispatch per three dimensions).

@group(0) @binding(0) var<storage, read> count: array<u32>;
@group(0) @binding(1) var<storage, read> flat: array<u32>;
@group(0) @binding(2) var<storage, read_write> coords: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let j = tile_of(wid) * 256u + lid;
    if j < count[0] && j < params.n {
        let dims = params.dims[0];
        var stride = dims.w;
        let index = flat[j];
        // From the last dimension of the group to its first.
        for (var k = 3u; k > 0u; k--) {
            let d = k - 1u;
            let size = dims[d];
            if params.first + d < params.len {
                coords[j * params.len + params.first + d] = (index / stride) % size;
            }
            stride *= size;
        }
    }
}
