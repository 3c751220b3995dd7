// Radix sort along rows: after the passes, `indices` holds each sorted key's index in the
// input; this writes the values at those indices (key-value pairs), or with SORT_MOD each
// index's place in its row (argsort).

@group(0) @binding(0) var<storage, read> source: array<u32>;
@group(0) @binding(1) var<storage, read> indices: array<u32>;
@group(0) @binding(2) var<storage, read_write> gathered: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let i = tile_of(wid) * 256u + lid;
    if i < params.n {
        let at = indices[i];
        if (params.flags & SORT_MOD) != 0u {
            gathered[i] = at % params.len;
        } else {
            gathered[i] = source[at];
        }
    }
}
