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

// The workgroup's combination of one value per invocation (every invocation gets it): each
// subgroup's by group_scan4, then the subgroups' through shared memory, two barriers where
// scan/common.wgsl's group_combine (the tree, for variants without subgroups) takes log2(WG) + 1.
fn group_total(ln: Lane, gr: Groups, v: V) -> V {
    let t = group_scan4(ln, gr, vec4<V>(v, identity(), identity(), identity())).ct.x;
    if ln.lane == 0u {
        wg_groups[ln.g] = t;
    }
    workgroupBarrier();
    var all = identity();
    for (var i = 0u; i < gr.count; i += 1u) {
        all = combine(all, wg_groups[i]);
    }
    workgroupBarrier();
    return all;
}

// The entry of a scan pass with the subgroup group step (see group_tree.wgsl).
@compute @workgroup_size(WG)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_invocation_id) sg_lane: u32,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_id) sg_id: u32,
    @builtin(num_subgroups) n_sg: u32,
) {
    let ln = Lane(lid, sg_id, sg_lane);
    let gr = Groups(sg_size, n_sg);
    let t = wid.y * params.groups_x + wid.x;
    run_pass(ln, gr, t);
}
