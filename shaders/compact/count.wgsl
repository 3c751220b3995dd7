// Compaction, first pass: each workgroup counts the kept elements of its tile of TILE (the
// mask's words that are not 0, the elements that are not zero, or those that differ from the
// one before them), so that a scan of the counts gives each tile its first place.

@group(0) @binding(2) var<storage, read_write> counts: array<u32>;

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
        let end = min(t * TILE + TILE, params.n);
        var c = 0u;
        for (var i = t * TILE + lid; i < end; i += 256u) {
            c += select(0u, 1u, keeps(i));
        }
        if c != 0u {
            atomicAdd(&kept, c);
        }
    }
    workgroupBarrier();
    if t < params.tiles && lid == 0u {
        counts[t] = atomicLoad(&kept);
    }
}
