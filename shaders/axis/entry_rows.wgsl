// The entry of the rows layouts (rows and row pairs): `lanes` threads per row, WG / lanes rows
// per workgroup, a row cut into `splits` chunks when there are too few rows to fill the GPU.
// Each thread's part of its row comes from row_part (shaders/axis/rows_loop.wgsl through
// elements.wgsl, one element a load, or through pairs_values.wgsl, whole u32 words of 16-bit
// input; or pairs_keys.wgsl), which reads at row indices first, first + step, ... below `end`,
// ROW_GRAIN elements at each.
fn reduce_rows(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g >= params.groups {
        return;
    }
    let shift = params.lanes_shift;
    let lanes = 1u << shift;
    let split = wid.z;
    let row = (g << (WG_SHIFT - shift)) + (lid >> shift);
    let lane = lid & (lanes - 1u);
    var acc = identity();
    if row < params.outer {
        let start = split * params.chunk;
        let end = min(start + params.chunk, params.r);
        acc = row_part(row * params.r, start + ROW_GRAIN * lane, end, ROW_GRAIN * lanes);
    }
    let total = lanes_combine(lid, lane, lanes, acc);
    if lane == 0u && row < params.outer {
        store(row * params.splits + split, total);
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    reduce_rows(lid, wid);
}
