// The entry of the wide rows layout of axis/axis.wgsl.
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    rows_wide_entry(lid, wid);
}
