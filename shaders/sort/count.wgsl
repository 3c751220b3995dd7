// Radix sort, first pass of a digit: each workgroup counts the digits of its tile of TILE keys
// (in a rows pass, of the keys' indices' rows: `keys` is then the indices) and writes the 256
// counts digit-major (`counts[digit * tiles + tile]`), so that one exclusive scan of the counts
// gives every tile's first position for every digit. No workgroup waits on another. In pieces,
// `keys` is the piece and its tiles come after `tile_base` others. `add_digit` is in
// count_atomic.wgsl (an atomic per key) or count_subgroup.wgsl (one per digit a subgroup holds).

@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<u32>;

var<workgroup> hist: array<atomic<u32>, 256>;

// The digit counted of key `i` of the piece.
fn counted_digit(i: u32) -> u32 {
    if (params.flags & SORT_ROWS) != 0u {
        return row_digit(keys[i]);
    }
    return digit(keys[i]);
}

// The count of one workgroup (`lane`: its invocation's lane in its subgroup, where known).
fn count_tile(lid: u32, wid: vec3<u32>, lane: u32) {
    let tile = tile_of(wid);
    if tile >= piece_tiles() {
        return;
    }
    atomicStore(&hist[lid], 0u);
    workgroupBarrier();
    for (var r = 0u; r < TILE / 256u; r++) {
        let i = tile * TILE + r * 256u + lid;
        let here = i < params.n;
        var d = 0u;
        if here {
            d = counted_digit(i);
        }
        add_digit(d, here, lane);
    }
    workgroupBarrier();
    counts[lid * params.tiles + params.tile_base + tile] = atomicLoad(&hist[lid]);
}
