// Radix sort, second pass of a digit: each workgroup ranks the keys of its tile among the keys
// of the same digit before them (stable: index order), places them in digit order in workgroup
// memory, and writes them out in that order, so that neighbouring invocations write
// neighbouring places of each digit's run (and then the values the same way). A key's place is
// its digit's position for the tile (`offsets`, the exclusive scan of the counts) plus its rank.
// With SORT_LOCAL_ROWS a workgroup sorts one row by the digit on its own instead: it counts the
// row's digits, then takes its tiles in order, each digit's next place carried from tile to
// tile (no counts, scan or row passes; the values are the keys' places in their row).
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
// SORT_LOCAL_ROWS: each digit's next place in the output for the workgroup's row.
var<workgroup> row_next: array<atomic<u32>, 256>;
// The scan's buffer, then each digit's place in the output less its first place in the tile.
var<workgroup> dest: array<u32, 256>;

// The keys an invocation holds: bits, value, digit, and rank among the tile's keys of its
// digit (then place in the tile); `held` has bit j set where key j exists.
var<private> held_key: array<u32, KPT>;
var<private> held_value: array<u32, KPT>;
var<private> held_digit: array<u32, KPT>;
var<private> held_at: array<u32, KPT>;
var<private> held: u32;

// The invocation's place in its subgroup and the subgroups' (the subgroup ranking's).
struct Lanes {
    lane: u32,
    size: u32,
    id: u32,
    count: u32,
}

// The work of workgroup `wid`: a tile, or with SORT_LOCAL_ROWS a row's tiles in order after a
// count of the row's digits (`rank_and_write` is the ranking's).
fn scatter_group(lid: u32, ln: Lanes, wid: vec3<u32>) {
    let group = tile_of(wid);
    if (params.flags & SORT_LOCAL_ROWS) != 0u {
        if group < params.tiles {
            let row_first = group * params.len;
            count_row(lid, row_first);
            for (var t = 0u; t * TILE < params.len; t++) {
                let count = min(TILE, params.len - t * TILE);
                rank_and_write(lid, ln, 0u, row_first + t * TILE, count);
            }
        }
    } else if group < piece_tiles() {
        rank_and_write(lid, ln, group, group * TILE, min(TILE, params.n - group * TILE));
    }
}

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

// Clears what the ranking starts from (before its first barrier; after the writes of the
// tile before, if any): the scratch, the places' digits, and the keys held.
fn begin_tile(lid: u32) {
    workgroupBarrier();
    held = 0u;
    for (var k = 0u; k < TILE / 256u; k++) {
        atomicStore(&scratch[k * 256u + lid], 0u);
    }
    for (var k = 0u; k < TILE / 1024u; k++) {
        atomicStore(&digits[k * 256u + lid], 0u);
    }
}

// SORT_LOCAL_ROWS: counts the digits of the row from key `row_first` (of `params.len`) and sets
// each digit's first place in the output.
fn count_row(lid: u32, row_first: u32) {
    atomicStore(&row_next[lid], 0u);
    workgroupBarrier();
    for (var i = lid; i < params.len; i += 256u) {
        atomicAdd(&row_next[digit(keys_in[row_first + i])], 1u);
    }
    workgroupBarrier();
    let c = atomicLoad(&row_next[lid]);
    atomicStore(&row_next[lid], row_first + exclusive256(lid, c));
}

// With `start` holding each digit's count in the tile and `held_at` each held key's rank, places
// the keys in digit order and writes them (and their values) out. `count`: the tile's keys.
fn place_and_write(lid: u32, tile: u32, count: u32) {
    let in_tile = start[lid];
    let first_place = exclusive256(lid, in_tile);
    start[lid] = first_place;
    if (params.flags & SORT_LOCAL_ROWS) != 0u {
        // This invocation alone reads and moves its digit's next place.
        dest[lid] = atomicAdd(&row_next[lid], in_tile) - first_place;
    } else {
        dest[lid] = offsets[lid * params.tiles + params.tile_base + tile] - first_place;
    }
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
