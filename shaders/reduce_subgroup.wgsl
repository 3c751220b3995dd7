// Workgroup step with subgroup operations. Correct for any subgroup size the device picks
// (Apple GPUs report 4..64, others up to 128): nothing here assumes a fixed size. Each subgroup
// reduces its values with `subgroup_combine` and its first lane stores the result; then every
// subgroup folds the stored values (lane j takes j, j + size, ...) and reduces again, so all
// subgroups hold the same result and invocation 0 writes it.

var<workgroup> scratch: array<A, WG>;

@compute @workgroup_size(WG)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_id) sg_id: u32,
    @builtin(num_subgroups) n_sg: u32,
) {
    let s = subgroup_combine(thread_partial(wid.x, lid));
    if lane == 0u {
        scratch[sg_id] = s;
    }
    workgroupBarrier();
    var b = identity();
    for (var j = lane; j < n_sg; j += sg_size) {
        b = combine(b, scratch[j]);
    }
    let r = subgroup_combine(b);
    if lid == 0u {
        dst[params.dst_base + wid.x] = finalize(r);
    }
}
