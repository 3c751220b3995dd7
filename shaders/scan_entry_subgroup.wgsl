// The entry of a scan pass with the subgroup group step (see scan_entry.wgsl).
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
