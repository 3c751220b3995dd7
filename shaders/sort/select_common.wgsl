// Radix select (top-k and kthvalue along rows): the keys of a row, a tile at a time. Each
// key becomes an order-preserving u32 with its most significant bits first (16-bit keys in
// the high half), so that passes from the top digit down narrow every row to its k-th key:
// a histogram of the digit among the keys that match the digits chosen so far, then a pick of
// the digit that holds the k-th key. `state[2 * row]` holds the digits chosen (the prefix),
// `state[2 * row + 1]` how many keys equal to the k-th are still to take.

// The raw bits of key `i` (16-bit keys: two to a word, the low half first).
fn load_key(i: u32) -> u32 {
    if (params.flags & (SORT_F16 | SORT_BF16)) != 0u {
        return (keys[i >> 1u] >> ((i & 1u) * 16u)) & 0xffffu;
    }
    return keys[i];
}

// The key in select order: the larger, the sooner taken (SORT_DESCENDING takes the smallest).
fn select_key(raw: u32) -> u32 {
    if (params.flags & (SORT_F16 | SORT_BF16)) != 0u {
        return (ordered(raw) & 0xffffu) << 16u;
    }
    return ordered(raw);
}

// Tile `t` of `tile` keys (tiles do not cross rows): its row, and its first and end indices.
fn tile_span(t: u32, tile: u32) -> vec3<u32> {
    let row = t / params.row_tiles;
    let start = row * params.len + (t % params.row_tiles) * tile;
    let end = min(start + tile, (row + 1u) * params.len);
    return vec3<u32>(row, start, end);
}
