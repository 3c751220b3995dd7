// Radix sort, first pass of a digit: each workgroup counts the digits of its tile of TILE keys
// (in a rows pass, of the keys' indices' rows: `keys` is then the indices) and writes the 256
// counts digit-major (`counts[digit * tiles + tile]`), so that one exclusive scan of the counts
// gives every tile's first position for every digit. No workgroup waits on another. In pieces,
// `keys` is the piece and its tiles come after `tile_base` others.

@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<u32>;

var<workgroup> hist: array<atomic<u32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let tile = tile_of(wid);
    atomicStore(&hist[lid], 0u);
    workgroupBarrier();
    if tile < piece_tiles() {
        for (var r = 0u; r < TILE / 256u; r++) {
            let i = tile * TILE + r * 256u + lid;
            if i < params.n {
                var d = digit(keys[i]);
                if (params.flags & SORT_ROWS) != 0u {
                    d = row_digit(keys[i]);
                }
                atomicAdd(&hist[d], 1u);
            }
        }
    }
    workgroupBarrier();
    if tile < piece_tiles() {
        counts[lid * params.tiles + params.tile_base + tile] = atomicLoad(&hist[lid]);
    }
}
