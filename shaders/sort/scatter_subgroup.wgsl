// The scatter's ranking with subgroup operations: subgroup g takes the g-th run of
// `subgroup_size * KPT` keys of the tile, `subgroup_size` keys a round in index order. Eight
// ballots (one per bit of the digit) give each key the lanes whose keys share its digit; it
// counts those below it, and the lowest of them adds their number to the subgroup's count of
// the digit (a workgroup atomic only this subgroup touches). The subgroups' counts are then
// scanned per digit. Counts are 16 bits, two digits to a word (`scratch[g * 128 + digit / 2]`),
// so subgroups of at least 16 invocations fit `scratch` (at most 16 subgroups); at most 128 (a
// ballot's four words).

// The word and the bit of subgroup g's count of digit d.
fn count_word(g: u32, d: u32) -> u32 {
    return g * 128u + d / 2u;
}

fn count_shift(d: u32) -> u32 {
    return 16u * (d % 2u);
}

// Ranks the `count` keys from key `first` and writes them (`tile`: the tile's number among the
// counts).
fn rank_and_write(lid: u32, ln: Lanes, tile: u32, first: u32, count: u32) {
    let lane = ln.lane;
    begin_tile(lid);
    workgroupBarrier();
    let below = lanes_below(lane);
    let run = ln.id * ln.size * KPT;
    for (var j = 0u; j < KPT; j++) {
        load_held(j, first, run + j * ln.size + lane, count);
        let d = held_digit[j];
        let here = (held & (1u << j)) != 0u;
        let peers = peers_of(d, here);
        let leader = lowest_lane(peers);
        var before = 0u;
        if here && lane == leader {
            let old = atomicAdd(&scratch[count_word(ln.id, d)], bits4(peers) << count_shift(d));
            before = (old >> count_shift(d)) & 0xffffu;
        }
        held_at[j] = subgroupShuffle(before, leader) + bits4(peers & below);
    }
    workgroupBarrier();
    // This invocation's two digits `2 lid` and `2 lid + 1` (one word of each subgroup's
    // counts): the counts become each subgroup's first ranks.
    if lid < 128u {
        var total = vec2<u32>(0u);
        for (var g = 0u; g < ln.count; g++) {
            let w = atomicLoad(&scratch[g * 128u + lid]);
            atomicStore(&scratch[g * 128u + lid], total.x | (total.y << 16u));
            total += vec2<u32>(w & 0xffffu, w >> 16u);
        }
        start[2u * lid] = total.x;
        start[2u * lid + 1u] = total.y;
    }
    workgroupBarrier();
    for (var j = 0u; j < KPT; j++) {
        if (held & (1u << j)) != 0u {
            let d = held_digit[j];
            held_at[j] += (atomicLoad(&scratch[count_word(ln.id, d)]) >> count_shift(d)) & 0xffffu;
        }
    }
    place_and_write(lid, tile, count);
}

@compute @workgroup_size(256)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_id) sg_id: u32,
    @builtin(num_subgroups) n_sg: u32,
) {
    scatter_group(lid, Lanes(lane, sg_size, sg_id, n_sg), wid);
}
