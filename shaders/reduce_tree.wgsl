// Workgroup step without subgroup operations: a shared-memory tree. Runs on every device.

var<workgroup> scratch: array<A, WG>;

@compute @workgroup_size(WG)
fn main(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
) {
    scratch[lid] = thread_partial(wid.x, lid);
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s >> 1u) {
        if lid < s {
            scratch[lid] = combine(scratch[lid], scratch[lid + s]);
        }
        workgroupBarrier();
    }
    if lid == 0u {
        dst[params.dst_base + wid.x] = finalize(scratch[0]);
    }
}
