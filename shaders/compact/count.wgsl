// Compaction, first pass: each workgroup counts the kept elements of its tile of TILE (the
// mask's words that are not 0, the elements that are not zero, or those that differ from the
// one before them), so that a scan of the counts gives each tile its first place; with
// COMPACT_BITS it also writes which it keeps, so that the scatter need not read the mask or
// the elements again to find out. Each invocation takes the elements the scatter's does.

@group(0) @binding(2) var<storage, read_write> counts: array<u32>;
@group(0) @binding(4) var<storage, read_write> bits_out: array<u32>;

var<workgroup> kept: atomic<u32>;

// With COMPACT_MASK, binding 1 is the mask.
fn keeps(i: u32) -> bool {
    if (params.flags & COMPACT_MASK) != 0u {
        return src[i] != 0u;
    }
    return keeps_value(i);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let t = tile_of(wid);
    if lid == 0u {
        atomicStore(&kept, 0u);
    }
    workgroupBarrier();
    if t < params.tiles {
        var bits = 0u;
        for (var r = 0u; r < 4u; r++) {
            let first = t * TILE + r * 1024u + lid * 4u;
            for (var j = 0u; j < 4u; j++) {
                let i = first + j;
                if i < params.n && keeps(i) {
                    bits |= 1u << (r * 4u + j);
                }
            }
        }
        if (params.flags & COMPACT_BITS) != 0u {
            bits_out[t * 256u + lid] = bits;
        }
        if bits != 0u {
            atomicAdd(&kept, countOneBits(bits));
        }
    }
    workgroupBarrier();
    if t < params.tiles && lid == 0u {
        counts[t] = atomicLoad(&kept);
    }
}
