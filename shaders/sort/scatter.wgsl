// Radix sort, second pass of a digit: each workgroup ranks the keys of its tile among the keys
// of the same digit before them (stable: index order), places them in digit order in workgroup
// memory, and writes them out in that order, so that neighbouring invocations write
// neighbouring places of each digit's run (and then the values the same way). A key's place is
// its digit's position for the tile (`offsets`, the exclusive scan of the counts) plus its rank.
// The ranking is in scatter_rank.wgsl (workgroup-wide bit masks) or scatter_subgroup.wgsl
// (subgroup ballots); no workgroup waits on another. In pieces, `keys_in` (and the values) is a
// piece of the input, and `keys_out` (and the values' output) the piece of the output from
// place `dst_base`: a key whose place lies outside it is left to the dispatch that binds its
// piece.

@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(5) var<storage, read> offsets: array<u32>;

// Keys each invocation holds.
const KPT: u32 = TILE / 256u;

// The ranking's scratch (bit masks or subgroups' counts), then the tile's keys (and then its
// values) in digit order.
var<workgroup> scratch: array<atomic<u32>, TILE>;
// The digit of each place of the tile in digit order, four to a word.
var<workgroup> digits: array<atomic<u32>, TILE / 4u>;
// Each digit's count in the tile, then its first place in the tile.
var<workgroup> start: array<u32, 256>;
// The scan's buffer, then each digit's place in the output less its first place in the tile.
var<workgroup> dest: array<u32, 256>;

// The keys an invocation holds: bits, value, digit, and rank among the tile's keys of its
// digit (then place in the tile); `held` has bit j set where key j exists.
var<private> held_key: array<u32, KPT>;
var<private> held_value: array<u32, KPT>;
var<private> held_digit: array<u32, KPT>;
var<private> held_at: array<u32, KPT>;
var<private> held: u32;

// Loads key `local` of the tile starting at key `first` into slot `j`, if it exists.
fn load_held(j: u32, first: u32, local: u32, count: u32) {
    held_key[j] = 0u;
    held_value[j] = 0u;
    held_digit[j] = 0u;
    if local < count {
        let i = first + local;
        held_key[j] = keys_in[i];
        held_value[j] = value_of(i);
        if (params.flags & SORT_ROWS) != 0u {
            held_digit[j] = row_digit(held_value[j]);
        } else {
            held_digit[j] = digit(held_key[j]);
        }
        held |= 1u << j;
    }
}

// The exclusive sum of `v` over invocations below `lid` (a tree in `dest`).
fn exclusive256(lid: u32, v: u32) -> u32 {
    dest[lid] = v;
    workgroupBarrier();
    for (var off = 1u; off < 256u; off *= 2u) {
        var t = 0u;
        if lid >= off {
            t = dest[lid - off];
        }
        workgroupBarrier();
        dest[lid] += t;
        workgroupBarrier();
    }
    let inclusive = dest[lid];
    workgroupBarrier();
    return inclusive - v;
}

// Clears what the ranking starts from (before its first barrier): the scratch, the places'
// digits, and the keys held. The tile's number of keys.
fn begin_tile(lid: u32, tile: u32) -> u32 {
    held = 0u;
    for (var k = 0u; k < TILE / 256u; k++) {
        atomicStore(&scratch[k * 256u + lid], 0u);
    }
    for (var k = 0u; k < TILE / 1024u; k++) {
        atomicStore(&digits[k * 256u + lid], 0u);
    }
    return min(TILE, params.n - tile * TILE);
}

// With `start` holding each digit's count in the tile and `held_at` each held key's rank, places
// the keys in digit order and writes them (and their values) out. `first`: the tile's first
// key; `count`: its keys.
fn place_and_write(lid: u32, tile: u32, count: u32) {
    let first_place = exclusive256(lid, start[lid]);
    start[lid] = first_place;
    dest[lid] = offsets[lid * params.tiles + params.tile_base + tile] - first_place;
    workgroupBarrier();
    for (var j = 0u; j < KPT; j++) {
        if (held & (1u << j)) != 0u {
            let at = start[held_digit[j]] + held_at[j];
            held_at[j] = at;
            atomicStore(&scratch[at], held_key[j]);
            atomicOr(&digits[at / 4u], held_digit[j] << (8u * (at % 4u)));
        }
    }
    workgroupBarrier();
    // Place p's output place, for the values after the keys.
    var out_at: array<u32, KPT>;
    for (var j = 0u; j < KPT; j++) {
        let p = j * 256u + lid;
        out_at[j] = 0xffffffffu;
        if p < count {
            let d = (atomicLoad(&digits[p / 4u]) >> (8u * (p % 4u))) & 255u;
            let at = dest[d] + p - params.dst_base;
            if at < params.dst_len {
                keys_out[at] = atomicLoad(&scratch[p]);
                out_at[j] = at;
            }
        }
    }
    if MOVES_VALUES {
        workgroupBarrier();
        for (var j = 0u; j < KPT; j++) {
            if (held & (1u << j)) != 0u {
                atomicStore(&scratch[held_at[j]], held_value[j]);
            }
        }
        workgroupBarrier();
        for (var j = 0u; j < KPT; j++) {
            if out_at[j] != 0xffffffffu {
                store_value(out_at[j], atomicLoad(&scratch[j * 256u + lid]));
            }
        }
    }
}
