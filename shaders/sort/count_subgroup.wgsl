// The count with subgroup ballots: in each round, the lowest lane of each digit a subgroup
// holds adds the number of its lanes with that digit, so that many equal digits (keys with few
// distinct bytes) do not queue on one atomic.

@compute @workgroup_size(256)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let tile = tile_of(wid);
    if tile >= piece_tiles() {
        return;
    }
    atomicStore(&hist[lid], 0u);
    workgroupBarrier();
    for (var r = 0u; r < TILE / 256u; r++) {
        let i = tile * TILE + r * 256u + lid;
        let here = i < params.n;
        var d = 0u;
        if here {
            d = counted_digit(i);
        }
        let peers = peers_of(d, here);
        if here && lane == lowest_lane(peers) {
            atomicAdd(&hist[d], bits4(peers));
        }
    }
    workgroupBarrier();
    write_counts(lid, tile);
}
