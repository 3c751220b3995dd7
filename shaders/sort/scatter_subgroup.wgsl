// The scatter's ranking with subgroup operations: subgroup g takes the g-th run of
// `subgroup_size * KPT` keys of the tile, `subgroup_size` keys a round in index order. Eight
// ballots (one per bit of the digit) give each key the lanes whose keys share its digit; it
// counts those below it, and the lowest of them adds their number to the subgroup's count of
// the digit (`scratch[g * 256 + digit]`, a workgroup atomic only this subgroup touches). The
// subgroups' counts are then scanned per digit. Needs subgroups of at least 32 invocations (at
// most 8 subgroups' counts fit `scratch`) and at most 128 (a ballot's four words).

@compute @workgroup_size(256)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_id) sg_id: u32,
    @builtin(num_subgroups) n_sg: u32,
) {
    let tile = tile_of(wid);
    if tile >= piece_tiles() {
        return;
    }
    let first = tile * TILE;
    let count = begin_tile(lid, tile);
    workgroupBarrier();
    let below = lanes_below(lane);
    let run = sg_id * sg_size * KPT;
    for (var j = 0u; j < KPT; j++) {
        load_held(j, first, run + j * sg_size + lane, count);
        let d = held_digit[j];
        let here = (held & (1u << j)) != 0u;
        let peers = peers_of(d, here);
        let leader = lowest_lane(peers);
        var before = 0u;
        if here && lane == leader {
            before = atomicAdd(&scratch[sg_id * 256u + d], bits4(peers));
        }
        held_at[j] = subgroupShuffle(before, leader) + bits4(peers & below);
    }
    workgroupBarrier();
    // This invocation's digit `lid`: the subgroups' counts become their first ranks.
    var total = 0u;
    for (var g = 0u; g < n_sg; g++) {
        let c = atomicLoad(&scratch[g * 256u + lid]);
        atomicStore(&scratch[g * 256u + lid], total);
        total += c;
    }
    start[lid] = total;
    workgroupBarrier();
    for (var j = 0u; j < KPT; j++) {
        if (held & (1u << j)) != 0u {
            held_at[j] += atomicLoad(&scratch[sg_id * 256u + held_digit[j]]);
        }
    }
    place_and_write(lid, tile, count);
}
