// The entry of the wide columns layout of axis/axis.wgsl.
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    cols_wide_entry(lid, wid);
}
