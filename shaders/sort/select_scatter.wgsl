// Radix select, the compaction: each tile takes, in index order, its keys above its row's k-th
// key and the first of those equal to it (as many as the row still needs, lower indices first),
// and writes each key's bits and its index in the row at its place among the row's k taken
// keys: the number of taken keys before it (from `offsets`, the exclusive scan of the counts,
// and a scan of the tile's keys). With SORT_KTH only the k-th key itself is written, one per
// row.

@group(0) @binding(0) var<storage, read> offsets: array<u32>;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> taken: array<u32>;
@group(0) @binding(4) var<storage, read_write> indices: array<u32>;
@group(0) @binding(5) var<storage, read> state: array<u32>;

// One bit per invocation of the round: keys above the k-th (words 0 to 7) and equal to it
// (words 8 to 15).
var<workgroup> masks: array<atomic<u32>, 16>;

// How many bits of `masks` words `first..first + 8` are set, below invocation `lid` and in all.
fn ranks(first: u32, lid: u32) -> vec2<u32> {
    var below = 0u;
    var total = 0u;
    for (var w = 0u; w < 8u; w++) {
        let bits = atomicLoad(&masks[first + w]);
        total += countOneBits(bits);
        if w < lid / 32u {
            below += countOneBits(bits);
        } else if w == lid / 32u {
            below += countOneBits(bits & ((1u << (lid % 32u)) - 1u));
        }
    }
    return vec2<u32>(below, total);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let t = tile_of(wid);
    let live = t < params.tiles;
    var span = vec3<u32>(0u, 0u, 0u);
    var kth = 0u;
    var need = 0u;
    var above_base = 0u;
    var equal_base = 0u;
    if live {
        span = tile_span(t, TILE);
        let first = span.x * params.row_tiles;
        kth = state[2u * span.x];
        need = state[2u * span.x + 1u];
        above_base = offsets[t] - offsets[first];
        equal_base = offsets[params.tiles + t] - offsets[params.tiles + first];
    }
    let row_start = span.x * params.len;
    // Rounds of 256 keys, as many as the tile holds (the same for the whole workgroup).
    let rounds = (span.z - span.y + 255u) / 256u;
    for (var r = 0u; r < rounds; r++) {
        if lid < 16u {
            atomicStore(&masks[lid], 0u);
        }
        workgroupBarrier();
        let i = span.y + r * 256u + lid;
        let valid = i < span.z;
        var flag = 0u;
        var raw = 0u;
        if valid {
            raw = load_key(i);
            let key = select_key(raw);
            if key > kth {
                flag = 1u;
                atomicOr(&masks[lid / 32u], 1u << (lid % 32u));
            } else if key == kth {
                flag = 2u;
                atomicOr(&masks[8u + lid / 32u], 1u << (lid % 32u));
            }
        }
        workgroupBarrier();
        let above = ranks(0u, lid);
        let equal = ranks(8u, lid);
        let above_before = above_base + above.x;
        let equal_before = equal_base + equal.x;
        if (params.flags & SORT_KTH) != 0u {
            if flag == 2u && equal_before + 1u == need {
                taken[span.x] = raw;
                indices[span.x] = i - row_start;
            }
        } else if flag != 0u {
            var at = 0xffffffffu;
            if flag == 1u {
                at = above_before + min(equal_before, need);
            } else if equal_before < need {
                at = above_before + equal_before;
            }
            if at != 0xffffffffu {
                taken[span.x * params.k + at] = raw;
                indices[span.x * params.k + at] = i - row_start;
            }
        }
        above_base += above.y;
        equal_base += equal.y;
        workgroupBarrier();
    }
}
