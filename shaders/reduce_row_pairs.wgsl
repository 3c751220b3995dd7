// Row pairs layout (added to the source of reduce_axis.wgsl for that layout only): the rows
// layout for 16-bit input (first pass, even `r`, even window base, an even chunk when a row is
// split), where each thread reads whole u32 words, elements j and j + 1 of its row by one load;
// the rows layout reads each word twice (each half separately), half a word per load. `lanes`
// threads per row stride over its words, four in flight per thread.

// Elements j and j + 1 of a row, the halves of the word at even element k.
fn load_pair(k0: u32, j0: u32) -> S {
    let k = params.src_base + k0;
    let j = params.j_base + j0;
    let w = src[k >> 1u];
    return combine(from_elem(half_at(w, 0u), j), from_elem(half_at(w, 1u), j + 1u));
}

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
        var acc1 = acc0;
        var acc2 = acc0;
        var acc3 = acc0;
        let start = split * params.chunk;
        let end = min(start + params.chunk, params.r);
        let base = row * params.r;
        let step = 2u * lanes;
        var j = start + 2u * lane;
        while j + 3u * step < end {
            acc0 = combine(acc0, load_pair(base + j, j));
            acc1 = combine(acc1, load_pair(base + j + step, j + step));
            acc2 = combine(acc2, load_pair(base + j + 2u * step, j + 2u * step));
            acc3 = combine(acc3, load_pair(base + j + 3u * step, j + 3u * step));
            j += 4u * step;
        }
        while j < end {
            acc0 = combine(acc0, load_pair(base + j, j));
            j += step;
        }
        acc0 = combine(combine(acc0, acc1), combine(acc2, acc3));
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
