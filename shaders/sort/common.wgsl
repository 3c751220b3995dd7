// Radix sort: the parameters, and the key's digit. A key is the element's bits, made
// order-preserving as a u32 (i32: the sign bit flipped; f32: negative values' bits inverted,
// positive ones' sign bit set, every NaN the largest key, so NaN sorts after +inf and -0.0
// before +0.0), inverted for a descending sort (equal keys stay equal: the sort stays stable).
// 16-bit keys (f16, bf16) are sorted widened to one per u32 word, their order in 16 bits.

struct SortParams {
    // Keys.
    n: u32,
    // Tiles of TILE keys (one workgroup each).
    tiles: u32,
    // Width of the dispatch grid.
    groups_x: u32,
    // The digit's lowest bit (0, 8, 16, 24).
    shift: u32,
    // SORT_* bits.
    flags: u32,
    // Keys per row (rows: the row of an index is index / len).
    len: u32,
    // Keys taken per row (radix select).
    k: u32,
    // Tiles per row (radix select: tiles do not cross rows).
    row_tiles: u32,
    // A sort beyond one binding runs in pieces: the first tile of the piece bound, the index
    // of its first key, and the places of the output's piece bound (first, count); the counts
    // and offsets are of every tile.
    tile_base: u32,
    index_base: u32,
    dst_base: u32,
    dst_len: u32,
    pad: array<vec4<u32>, 1>,
}

// Keys are i32 bits.
const SORT_I32: u32 = 1u;
// Keys are f32 bits.
const SORT_F32: u32 = 2u;
// Largest first.
const SORT_DESCENDING: u32 = 4u;
// The values are the keys' indices (an argsort's first pass).
const SORT_IOTA: u32 = 8u;
// Keys are f16 bits (the low 16 of each word).
const SORT_F16: u32 = 16u;
// Keys are bf16 bits (the low 16 of each word).
const SORT_BF16: u32 = 32u;
// A pass of the rows' digits: the digit is of the row of the key's index (its value), so
// that, after the keys' passes, the rows come back together with their keys in order.
const SORT_ROWS: u32 = 64u;
// The gather writes each index's place in its row (index % len) instead of a value.
const SORT_MOD: u32 = 128u;
// The radix select's compaction writes only each row's k-th key (kthvalue).
const SORT_KTH: u32 = 256u;
// A short rows' sort moves the values at the keys' indices with them.
const SORT_PAIRS: u32 = 512u;
// The scatter sorts one row of `len` keys a workgroup (`tiles` rows) by the digit, counting its
// digits itself; an argsort's first values are the keys' places in their row.
const SORT_LOCAL_ROWS: u32 = 1024u;

const TILE: u32 = 2048u;

@group(0) @binding(3) var<uniform> params: SortParams;

// A 16-bit float's bits in order, NaN (exponent and mantissa above `inf`) the largest.
fn ordered16(h: u32, inf: u32) -> u32 {
    if (h & 0x7fffu) > inf {
        return 0xffffu;
    }
    if (h & 0x8000u) != 0u {
        return ~h & 0xffffu;
    }
    return h | 0x8000u;
}

fn ordered(k: u32) -> u32 {
    var o = k;
    if (params.flags & SORT_F16) != 0u {
        o = ordered16(k & 0xffffu, 0x7c00u);
    } else if (params.flags & SORT_BF16) != 0u {
        o = ordered16(k & 0xffffu, 0x7f80u);
    } else if (params.flags & SORT_I32) != 0u {
        o = k ^ 0x80000000u;
    } else if (params.flags & SORT_F32) != 0u {
        if (k & 0x7fffffffu) > 0x7f800000u {
            o = 0xffffffffu;
        } else if (k & 0x80000000u) != 0u {
            o = ~k;
        } else {
            o = k | 0x80000000u;
        }
    }
    if (params.flags & SORT_DESCENDING) != 0u {
        o = ~o;
    }
    return o;
}

fn digit(k: u32) -> u32 {
    return (ordered(k) >> params.shift) & 255u;
}

// Tiles in the piece bound.
fn piece_tiles() -> u32 {
    return (params.n + TILE - 1u) / TILE;
}

// The digit of the row of index `v`.
fn row_digit(v: u32) -> u32 {
    return ((v / params.len) >> params.shift) & 255u;
}

// The first value of key `i` of an argsort: its index (its place in its row in a sort of
// rows a workgroup each).
fn iota(i: u32) -> u32 {
    if (params.flags & SORT_LOCAL_ROWS) != 0u {
        return i % params.len;
    }
    return params.index_base + i;
}

fn tile_of(wid: vec3<u32>) -> u32 {
    return wid.y * params.groups_x + wid.x;
}
