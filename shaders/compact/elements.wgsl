// The elements read at binding 1, and which a compaction keeps by their values (the count, the
// scatter and the histograms read them).

@group(0) @binding(1) var<storage, read> src: array<u32>;

// Element i's bits (16-bit elements in the low half).
fn elem(i: u32) -> u32 {
    if (params.flags & COMPACT_HALF) != 0u {
        return (src[i >> 1u] >> ((i & 1u) * 16u)) & 0xffffu;
    }
    return src[i];
}

// Whether element i is kept for its value: it is not zero (COMPACT_NONZERO), or it is the first
// of a run (COMPACT_CHANGES: the first element, or one that differs from the one before it).
fn keeps_value(i: u32) -> bool {
    if (params.flags & COMPACT_NONZERO) != 0u {
        return !is_zero_bits(elem(i));
    }
    return i == 0u || differ(elem(i - 1u), elem(i));
}
