// Compaction, second pass: each workgroup takes its tile of TILE (4,096) elements in four rounds
// of 1,024 (four consecutive ones per invocation in each), finds which it keeps, ranks them with
// one scan of the four rounds' counts across the workgroup, and writes each kept element
// (COMPACT_VALUES) or its index (COMPACT_INDICES) at its place: the kept elements before it,
// from `offsets` (the inclusive scan of the tiles' counts) and the scan. It is stable: kept
// elements keep their order. With COMPACT_REST the others follow the kept ones, in order
// (place: all kept + the others before it); with COMPACT_INVERSE every element gets the place
// of the last kept element at or before it. With COMPACT_BITS, which elements are kept comes
// from the count (binding 5) instead of the mask or the elements.

@group(0) @binding(0) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(4) var<storage, read_write> aux: array<u32>;
@group(0) @binding(5) var<storage, read> sel: array<u32>;

var<workgroup> sums: array<vec4<u32>, 256>;

fn keeps(i: u32) -> bool {
    if (params.flags & COMPACT_MASK) != 0u {
        return sel[i] != 0u;
    }
    return keeps_value(i);
}

struct Ranks {
    // The kept elements of each round in the invocations before this one.
    before: vec4<u32>,
    // The kept elements of each round in the whole workgroup.
    total: vec4<u32>,
}

// The four rounds' counts scanned at once across the workgroup (Hillis-Steele in workgroup
// memory).
fn group_ranks(lid: u32, c: vec4<u32>) -> Ranks {
    var v = c;
    sums[lid] = v;
    workgroupBarrier();
    for (var d = 1u; d < 256u; d <<= 1u) {
        if lid >= d {
            v += sums[lid - d];
        }
        workgroupBarrier();
        sums[lid] = v;
        workgroupBarrier();
    }
    let total = sums[255];
    workgroupBarrier();
    return Ranks(v - c, total);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let t = tile_of(wid);
    let live = t < params.tiles;
    var before = 0u;
    if live && t > 0u {
        before = offsets[t - 1u];
    }
    let all_kept = offsets[params.tiles - 1u];
    // Four rounds of 1,024 elements, four consecutive ones per invocation in each: which are
    // kept (bit 4r + j), and how many in each round.
    var bits = 0u;
    if live && (params.flags & COMPACT_BITS) != 0u {
        bits = sel[t * 256u + lid];
    } else {
        for (var r = 0u; r < 4u; r++) {
            let first = t * TILE + r * 1024u + lid * 4u;
            for (var j = 0u; j < 4u; j++) {
                let i = first + j;
                if live && i < params.n && keeps(i) {
                    bits |= 1u << (r * 4u + j);
                }
            }
        }
    }
    var c = vec4<u32>(0u);
    for (var r = 0u; r < 4u; r++) {
        c[r] = countOneBits((bits >> (r * 4u)) & 15u);
    }
    let ranks = group_ranks(lid, c);
    for (var r = 0u; r < 4u; r++) {
        let first = t * TILE + r * 1024u + lid * 4u;
        // Kept elements before this invocation's first of the round.
        var at = before + ranks.before[r];
        for (var j = 0u; j < 4u; j++) {
            let i = first + j;
            if live && i < params.n {
                let k = (bits >> (r * 4u + j)) & 1u;
                if k != 0u {
                    if (params.flags & COMPACT_VALUES) != 0u {
                        dst[at] = elem(i);
                    }
                    if (params.flags & COMPACT_INDICES) != 0u {
                        aux[at] = i;
                    }
                } else if (params.flags & COMPACT_REST) != 0u {
                    dst[all_kept + i - at] = elem(i);
                }
                if (params.flags & COMPACT_INVERSE) != 0u {
                    var to = i;
                    if (params.flags & COMPACT_PERM) != 0u {
                        to = sel[i];
                    }
                    aux[to] = at + k - 1u;
                }
                at += k;
            }
        }
        before += ranks.total[r];
    }
}
