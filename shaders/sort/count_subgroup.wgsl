// The count with subgroup ballots: in each round, the lowest lane of each digit a subgroup
// holds adds the number of its lanes with that digit, so that many equal digits (keys with few
// distinct bytes) do not queue on one atomic.

fn add_digit(d: u32, here: bool, lane: u32) {
    let peers = peers_of(d, here);
    if here && lane == lowest_lane(peers) {
        atomicAdd(&hist[d], bits4(peers));
    }
}

@compute @workgroup_size(256)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    count_tile(lid, wid, lane);
}
