// Workgroup step without subgroup operations: a shared-memory tree. Runs on every device.

var<workgroup> scratch: array<A, WG>;

// Valid in every invocation; a later call (reduce/reduce.wgsl, finish) comes after a barrier, so every
// invocation has read scratch[0] before it is written again.
fn group_reduce(l: Lanes, v: A) -> A {
    scratch[l.lid] = v;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s >> 1u) {
        if l.lid < s {
            scratch[l.lid] = combine(scratch[l.lid], scratch[l.lid + s]);
        }
        workgroupBarrier();
    }
    return scratch[0];
}

@compute @workgroup_size(WG)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
) {
    let l = Lanes(lid, 0u, 1u, 0u, 1u);
    finish(l, wid.x, group_reduce(l, thread_partial(wid.x, lid)));
}
