// Run-length encoding: the length of each run from the places of the runs' first elements
// (`starts`, a compaction of indices; `count` of them) and the elements in all (`n`).

@group(0) @binding(0) var<storage, read> count: array<u32>;
@group(0) @binding(1) var<storage, read> starts: array<u32>;
@group(0) @binding(2) var<storage, read_write> lengths: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let j = tile_of(wid) * 256u + lid;
    let runs = count[0];
    if j < runs {
        var end = params.n;
        if j + 1u < runs {
            end = starts[j + 1u];
        }
        lengths[j] = end - starts[j];
    }
}
