// Histograms along rows of `len` elements, `bins` bins each: `row_groups` workgroups per row
// take its tiles of HTILE in turn. A float element x in [lo, hi] goes to bin
// floor((x - lo) * scale) (scale = bins / (hi - lo)), the last bin when that reaches `bins`
// (the last bin is closed); others and NaN go nowhere. With COMPACT_INTS, element x (u32 or
// i32) goes to bin x; one outside 0..bins is an error: the lowest such index is kept in `flag`
// (binding 4, u32::MAX when every element is valid). PRIVATE (from the prelude): the
// workgroup counts in workgroup memory and adds its counts to the row's once; else every
// element adds 1 to the row's count in memory. Integer atomics: the counts are exact and the
// same on every run.

@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> flag: array<atomic<u32>>;

// Elements per tile.
const HTILE: u32 = 4096u;
// Bins the private counts hold (8 KiB).
const PRIVATE_BINS: u32 = 2048u;
// No bin.
const NO_BIN: u32 = 0xffffffffu;

var<workgroup> local_counts: array<atomic<u32>, PRIVATE_BINS>;

// Element i as f32.
fn value_at(i: u32) -> f32 {
    if (params.flags & COMPACT_HALF) != 0u {
        let word = src[i >> 1u];
        if (params.flags & COMPACT_BF16) != 0u {
            return bitcast<f32>(((word >> ((i & 1u) * 16u)) & 0xffffu) << 16u);
        }
        return f16_at(word, i & 1u);
    }
    return bitcast<f32>(src[i]);
}

fn bin_of(i: u32) -> u32 {
    if (params.flags & COMPACT_INTS) != 0u {
        let v = src[i];
        // i32 below 0 is above 2^31 as u32: past every bin count.
        if v >= params.bins {
            atomicMin(&flag[0], i);
            return NO_BIN;
        }
        return v;
    }
    let x = value_at(i);
    if !(x >= params.lo && x <= params.hi) {
        return NO_BIN;
    }
    return min(u32((x - params.lo) * params.scale), params.bins - 1u);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let w = tile_of(wid);
    let live = w < params.tiles;
    let row = w / params.row_groups;
    let group = w % params.row_groups;
    if PRIVATE {
        for (var b = lid; b < PRIVATE_BINS; b += 256u) {
            atomicStore(&local_counts[b], 0u);
        }
    }
    workgroupBarrier();
    if live {
        let row_tiles = (params.len + HTILE - 1u) / HTILE;
        let row_end = row * params.len + params.len;
        for (var tile = group; tile < row_tiles; tile += params.row_groups) {
            let start = row * params.len + tile * HTILE;
            let end = min(start + HTILE, row_end);
            for (var i = start + lid; i < end; i += 256u) {
                let b = bin_of(i);
                if b != NO_BIN {
                    if PRIVATE {
                        atomicAdd(&local_counts[b], 1u);
                    } else {
                        atomicAdd(&counts[row * params.bins + b], 1u);
                    }
                }
            }
        }
    }
    workgroupBarrier();
    if PRIVATE && live {
        for (var b = lid; b < params.bins; b += 256u) {
            let c = atomicLoad(&local_counts[b]);
            if c != 0u {
                atomicAdd(&counts[row * params.bins + b], c);
            }
        }
    }
}
