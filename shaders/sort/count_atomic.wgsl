// The count with a workgroup atomic per key.

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let tile = tile_of(wid);
    if tile >= piece_tiles() {
        return;
    }
    atomicStore(&hist[lid], 0u);
    workgroupBarrier();
    for (var r = 0u; r < TILE / 256u; r++) {
        let i = tile * TILE + r * 256u + lid;
        if i < params.n {
            atomicAdd(&hist[counted_digit(i)], 1u);
        }
    }
    workgroupBarrier();
    write_counts(lid, tile);
}
