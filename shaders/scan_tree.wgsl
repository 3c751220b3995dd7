// Scan across the group for the shared-memory variant: one group of WG lanes (the workgroup),
// K independent chunks at once, Hillis-Steele in shared memory. Runs on every device. Returns each
// lane's exclusive prefix (ex) and each chunk's total (ct).

var<workgroup> scratch: array<S, WG * K>;

fn group_scan(
    ln: Lane,
    x: ptr<function, array<S, K>>,
    ex: ptr<function, array<S, K>>,
    ct: ptr<function, array<S, K>>,
) {
    for (var k = 0u; k < K; k += 1u) {
        scratch[k * WG + ln.lane] = (*x)[k];
    }
    workgroupBarrier();
    for (var d = 1u; d < WG; d <<= 1u) {
        var t: array<S, K>;
        for (var k = 0u; k < K; k += 1u) {
            t[k] = (*x)[k];
            if ln.lane >= d {
                t[k] = combine(scratch[k * WG + ln.lane - d], (*x)[k]);
            }
        }
        workgroupBarrier();
        for (var k = 0u; k < K; k += 1u) {
            scratch[k * WG + ln.lane] = t[k];
            (*x)[k] = t[k];
        }
        workgroupBarrier();
    }
    for (var k = 0u; k < K; k += 1u) {
        (*ex)[k] = identity();
        if ln.lane > 0u {
            (*ex)[k] = scratch[k * WG + ln.lane - 1u];
        }
        (*ct)[k] = scratch[k * WG + WG - 1u];
    }
    workgroupBarrier();
}
