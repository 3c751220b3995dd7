// Compaction, runs and histograms: the parameters, and the elements' bits. Elements are read as
// u32 words at binding 1; 16-bit elements (f16, bf16) are two to a word, element i in the low
// half of word i / 2 when i is even, the high half when odd.

struct CompactParams {
    // Elements.
    n: u32,
    // Workgroups numbered linearly (tiles of the compaction, row groups of a histogram).
    tiles: u32,
    // Width of the dispatch grid.
    groups_x: u32,
    // COMPACT_* bits.
    flags: u32,
    // Elements per row (histograms), or the width of each kept row (the unravel: dimensions).
    len: u32,
    // Bins per row (histograms).
    bins: u32,
    // A float histogram's range and the factor bins / (hi - lo); `lo` is also a float
    // comparison's value.
    lo: f32,
    scale: f32,
    hi: f32,
    // The bits written past the count (the fill), or an integer comparison's value.
    value: u32,
    // Workgroups per row (histograms).
    row_groups: u32,
    // The unravel: the first dimension of this group of three.
    first: u32,
    // The unravel: the group's three dimensions (1 past the last), and the product of the
    // dimensions after them.
    dims: array<vec4<u32>, 1>,
}

// What is kept: elements whose mask word (binding 5 in the scatter, 1 in the count) is not 0.
const COMPACT_MASK: u32 = 1u;
// What is kept: elements that are not zero (NaN is not zero; -0.0 is).
const COMPACT_NONZERO: u32 = 2u;
// What is kept: the first element and each one that differs from the one before it (floats
// compare as values: -0.0 equals +0.0, NaN equals nothing).
const COMPACT_CHANGES: u32 = 4u;
// Elements are f32.
const COMPACT_F32: u32 = 8u;
// Elements are 16-bit floats, two to a word (f16 unless COMPACT_BF16).
const COMPACT_HALF: u32 = 16u;
// 16-bit elements are bf16.
const COMPACT_BF16: u32 = 32u;
// Elements are i32.
const COMPACT_I32: u32 = 64u;
// The scatter writes each kept element's bits at its place (binding 2, a word each).
const COMPACT_VALUES: u32 = 128u;
// The scatter writes each kept element's index at its place (binding 4).
const COMPACT_INDICES: u32 = 256u;
// The scatter writes the elements not kept after the kept ones, in order (a partition).
const COMPACT_REST: u32 = 512u;
// The scatter writes, for every element, the place of the last kept element at or before it
// (a run's index) at binding 4.
const COMPACT_INVERSE: u32 = 1024u;
// With COMPACT_INVERSE, element i's place is written at index perm[i] (binding 5).
const COMPACT_PERM: u32 = 2048u;
// A histogram of integers: element x goes to bin x (bincount).
const COMPACT_INTS: u32 = 4096u;
// The comparison: true where the element is below the value (COMPACT_LT), above it
// (COMPACT_GT) or equal to it (COMPACT_EQ), any of those set; COMPACT_NE: not equal to it.
const COMPACT_LT: u32 = 8192u;
const COMPACT_GT: u32 = 16384u;
const COMPACT_EQ: u32 = 32768u;
const COMPACT_NE: u32 = 65536u;
// The count writes which elements of its tile it keeps (binding 4: a word per invocation, bit
// 4r + j for element 1024r + 4 * invocation + j), and the scatter reads them (binding 5)
// instead of the mask or the elements.
const COMPACT_BITS: u32 = 131072u;

// Elements per tile of the compaction (one workgroup each).
const TILE: u32 = 4096u;

@group(0) @binding(3) var<uniform> params: CompactParams;

fn tile_of(wid: vec3<u32>) -> u32 {
    return wid.y * params.groups_x + wid.x;
}

// Whether the element's bits are those of a NaN.
fn is_nan_bits(e: u32) -> bool {
    if (params.flags & COMPACT_F32) != 0u {
        return (e & 0x7fffffffu) > 0x7f800000u;
    }
    if (params.flags & COMPACT_BF16) != 0u {
        return (e & 0x7fffu) > 0x7f80u;
    }
    if (params.flags & COMPACT_HALF) != 0u {
        return (e & 0x7fffu) > 0x7c00u;
    }
    return false;
}

// Whether the element is zero (floats: either sign).
fn is_zero_bits(e: u32) -> bool {
    if (params.flags & COMPACT_F32) != 0u {
        return (e & 0x7fffffffu) == 0u;
    }
    if (params.flags & COMPACT_HALF) != 0u {
        return (e & 0x7fffu) == 0u;
    }
    return e == 0u;
}

// Whether two elements differ as values.
fn differ(a: u32, b: u32) -> bool {
    if is_nan_bits(a) || is_nan_bits(b) {
        return true;
    }
    if is_zero_bits(a) && is_zero_bits(b) {
        return false;
    }
    return a != b;
}
