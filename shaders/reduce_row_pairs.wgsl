// Row pairs layout (added to the source of reduce_axis.wgsl for that layout only): the rows
// layout for 16-bit input (first pass, even `r`, even window base, an even chunk when a row is
// split), where each thread reads whole u32 words, elements j and j + 1 of its row by one load;
// the rows layout reads each word twice (each half separately), half a word per load. `lanes`
// threads per row stride over its words (row_part: shaders/rows/pairs_values.wgsl, or for
// min/max/argmin/argmax pairs_keys.wgsl).

fn reduce_row_pairs(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g >= params.groups {
        return;
    }
    let shift = params.lanes_shift;
    let lanes = 1u << shift;
    let split = wid.z;
    let row = (g << (WG_SHIFT - shift)) + (lid >> shift);
    let lane = lid & (lanes - 1u);
    var acc0 = identity();
    if row < params.outer {
        let start = split * params.chunk;
        let end = min(start + params.chunk, params.r);
        acc0 = row_part(row * params.r, start + 2u * lane, end, 2u * lanes);
    }
    scratch[lid] = acc0;
    workgroupBarrier();
    for (var s = lanes / 2u; s > 0u; s = s >> 1u) {
        if lane < s {
            scratch[lid] = combine(scratch[lid], scratch[lid + s]);
        }
        workgroupBarrier();
    }
    if lane == 0u && row < params.outer {
        store(row * params.splits + split, scratch[lid]);
    }
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    reduce_row_pairs(lid, wid);
}
