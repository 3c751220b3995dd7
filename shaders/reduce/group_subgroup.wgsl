// Workgroup step with subgroup operations. Correct for any subgroup size the device picks
// (Apple GPUs report 4..64, others up to 128): nothing here assumes a fixed size. Each subgroup
// reduces its values with `subgroup_combine` and its first lane stores the result; then every
// subgroup folds the stored values (lane j takes j, j + size, ...) and reduces again, so all
// subgroups hold the same result and invocation 0 writes it.

var<workgroup> scratch: array<A, WG>;

// Valid in every invocation.
fn group_reduce(l: Lanes, v: A) -> A {
    let s = subgroup_combine(v);
    if l.lane == 0u {
        scratch[l.sg] = s;
    }
    workgroupBarrier();
    var b = identity();
    for (var j = l.lane; j < l.count; j += l.size) {
        b = combine(b, scratch[j]);
    }
    // A later call (reduce/reduce.wgsl, finish) comes after a barrier, so every invocation has read
    // `scratch` before it is written again.
    return subgroup_combine(b);
}

@compute @workgroup_size(WG)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) sg_size: u32,
    @builtin(subgroup_id) sg_id: u32,
    @builtin(num_subgroups) n_sg: u32,
) {
    let l = Lanes(lid, lane, sg_size, sg_id, n_sg);
    finish(l, wid.x, group_reduce(l, thread_partial(wid.x, lid)));
}
