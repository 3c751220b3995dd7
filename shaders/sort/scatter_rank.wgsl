// The scatter's ranking with workgroup memory alone: the tile in rounds of 256 keys in index
// order, each round a bit mask per digit (a bit per invocation, eight words, which `scratch`
// holds word-major) from which each key counts the keys of its digit before it in the round;
// `start` carries each digit's count over the rounds.

// Ranks the `count` keys from key `first` and writes them (`tile`: the tile's number among the
// counts).
// (`Lanes` is not used: no subgroups here.)
fn rank_and_write(lid: u32, ln: Lanes, tile: u32, first: u32, count: u32) {
    begin_tile(lid);
    start[lid] = 0u;
    workgroupBarrier();
    let word = lid / 32u;
    let below = (1u << (lid % 32u)) - 1u;
    for (var j = 0u; j < KPT; j++) {
        load_held(j, first, j * 256u + lid, count);
        let d = held_digit[j];
        let here = (held & (1u << j)) != 0u;
        if here {
            atomicOr(&scratch[word * 256u + d], 1u << (lid % 32u));
        }
        workgroupBarrier();
        if here {
            var rank = start[d] + countOneBits(atomicLoad(&scratch[word * 256u + d]) & below);
            for (var k = 0u; k < word; k++) {
                rank += countOneBits(atomicLoad(&scratch[k * 256u + d]));
            }
            held_at[j] = rank;
        }
        // This invocation's digit `lid`: its keys in the round.
        var round = 0u;
        for (var k = 0u; k < 8u; k++) {
            round += countOneBits(atomicLoad(&scratch[k * 256u + lid]));
        }
        workgroupBarrier();
        start[lid] += round;
        for (var k = 0u; k < 8u; k++) {
            atomicStore(&scratch[k * 256u + lid], 0u);
        }
        workgroupBarrier();
    }
    place_and_write(lid, tile, count);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    scatter_group(lid, Lanes(0u, 0u, 0u, 0u), wid);
}
