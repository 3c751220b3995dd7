// group_scan4 with subgroup operations: a group is one subgroup, of whatever size the device
// picks (4..128; nothing assumes a fixed size). `subgroup_inclusive4` (prelude) is
// subgroupInclusiveAdd for add and a shuffle-up ladder for min and max.

fn group_scan4(ln: Lane, gr: Groups, x: vec4<V>) -> GroupScan4 {
    let inc = subgroup_inclusive4(x, ln.lane, gr.size);
    let up = subgroupShuffleUp(inc, 1u);
    let ex = select(up, vec4<V>(identity()), ln.lane == 0u);
    let ct = subgroupShuffle(inc, gr.size - 1u);
    return GroupScan4(ex, ct);
}
