// The entry of the rows, columns and wide layouts of reduce_axis.wgsl; the prelude sets
// `const LAYOUT: u32` (0 rows, 1 columns, 2 wide rows, 3 wide columns).
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    if LAYOUT == 0u {
        reduce_rows(lid, wid);
    } else if LAYOUT == 1u {
        reduce_cols(lid, wid);
    } else if LAYOUT == 2u {
        rows_wide_entry(lid, wid);
    } else {
        cols_wide_entry(lid, wid);
    }
}
