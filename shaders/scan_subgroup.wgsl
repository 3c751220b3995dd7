// Scan across the group for the subgroup variant: a group is one subgroup, of whatever size the
// device picks (4..128; nothing assumes a fixed size). `subgroup_inclusive` (prelude) is
// subgroupInclusiveAdd for add and a shuffle-up ladder for min and max. Returns each lane's
// exclusive prefix (ex) and each chunk's total (ct, from the last lane).

fn group_scan(
    ln: Lane,
    x: ptr<function, array<S, K>>,
    ex: ptr<function, array<S, K>>,
    ct: ptr<function, array<S, K>>,
) {
    for (var k = 0u; k < K; k += 1u) {
        let inc = subgroup_inclusive((*x)[k], ln.lane, ln.size);
        let up = subgroupShuffleUp(inc, 1u);
        (*ex)[k] = select(up, identity(), ln.lane == 0u);
        (*ct)[k] = subgroupShuffle(inc, ln.size - 1u);
    }
}
