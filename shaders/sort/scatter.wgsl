// Radix sort, second pass of a digit: each workgroup reads its tile again, 256 keys a round in
// index order, ranks each key among the keys of its digit before it (the tile's earlier rounds,
// counted in `base`, and the round's lower invocations, read from a bit mask per digit), and
// writes it (and its value) at its digit's position for the tile (`offsets`, the exclusive scan
// of the counts) plus that rank: equal digits keep their order, so the sort is stable. No
// workgroup waits on another. In pieces, `keys_in` (and the values) is a piece of the input,
// and `keys_out` (and the values' output) the piece of the output from place `dst_base`: a key
// whose place lies outside it is left to the dispatch that binds its piece.

@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(5) var<storage, read> offsets: array<u32>;

// One bit per invocation of the round, 8 words per digit.
var<workgroup> masks: array<atomic<u32>, 2048>;
// Keys of each digit in the tile's earlier rounds.
var<workgroup> base: array<atomic<u32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let tile = tile_of(wid);
    atomicStore(&base[lid], 0u);
    for (var k = 0u; k < 8u; k++) {
        atomicStore(&masks[lid * 8u + k], 0u);
    }
    workgroupBarrier();
    for (var r = 0u; r < TILE / 256u; r++) {
        let i = tile * TILE + r * 256u + lid;
        let valid = tile < piece_tiles() && i < params.n;
        var key = 0u;
        var d = 0u;
        if valid {
            key = keys_in[i];
            d = digit(key);
            if (params.flags & SORT_ROWS) != 0u {
                d = row_digit(value_of(i));
            }
            atomicOr(&masks[d * 8u + lid / 32u], 1u << (lid % 32u));
        }
        workgroupBarrier();
        if valid {
            let word = lid / 32u;
            var rank = countOneBits(atomicLoad(&masks[d * 8u + word]) & ((1u << (lid % 32u)) - 1u));
            for (var k = 0u; k < word; k++) {
                rank += countOneBits(atomicLoad(&masks[d * 8u + k]));
            }
            let at = offsets[d * params.tiles + params.tile_base + tile] + atomicLoad(&base[d])
                + rank - params.dst_base;
            if at < params.dst_len {
                keys_out[at] = key;
                move_value(i, at);
            }
        }
        workgroupBarrier();
        if valid {
            atomicAdd(&base[d], 1u);
        }
        for (var k = 0u; k < 8u; k++) {
            atomicStore(&masks[lid * 8u + k], 0u);
        }
        workgroupBarrier();
    }
}
