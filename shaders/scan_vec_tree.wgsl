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
