// group_scan4 without subgroup operations: one group of WG lanes (the workgroup), the four
// chunks scanned at once as a vec4, Hillis-Steele in shared memory. Runs on every device.

var<workgroup> scratch4: array<vec4<V>, WG>;

fn group_scan4(ln: Lane, gr: Groups, x: vec4<V>) -> GroupScan4 {
    var v = x;
    scratch4[ln.lane] = v;
    workgroupBarrier();
    for (var d = 1u; d < WG; d <<= 1u) {
        if ln.lane >= d {
            v = combine4(scratch4[ln.lane - d], v);
        }
        workgroupBarrier();
        scratch4[ln.lane] = v;
        workgroupBarrier();
    }
    var ex = vec4<V>(identity());
    if ln.lane > 0u {
        ex = scratch4[ln.lane - 1u];
    }
    let ct = scratch4[WG - 1u];
    workgroupBarrier();
    return GroupScan4(ex, ct);
}

// The workgroup's combination of one value per invocation (every invocation gets it).
fn group_total(ln: Lane, gr: Groups, v: V) -> V {
    return group_combine(ln, v);
}

// The entry of a scan pass with the shared-memory group step; `run_pass`, which calls the
// pass's function in passes.wgsl, comes from the variant's prelude.
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let ln = Lane(lid, 0u, lid);
    let gr = Groups(WG, 1u);
    let t = wid.y * params.groups_x + wid.x;
    run_pass(ln, gr, t);
}
