// Radix select, the count before the compaction: each tile's keys above its row's k-th key
// (`counts[t]`) and equal to it (`counts[tiles + t]`), so that one exclusive scan of the counts
// gives each tile its place among its row's taken keys.

@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<u32>;
@group(0) @binding(5) var<storage, read> state: array<u32>;

var<workgroup> above: atomic<u32>;
var<workgroup> equal: atomic<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let t = tile_of(wid);
    if lid == 0u {
        atomicStore(&above, 0u);
        atomicStore(&equal, 0u);
    }
    workgroupBarrier();
    if t < params.tiles {
        let span = tile_span(t, TILE);
        let kth = state[2u * span.x];
        var a = 0u;
        var e = 0u;
        for (var i = span.y + lid; i < span.z; i += 256u) {
            let key = select_key(load_key(i));
            a += select(0u, 1u, key > kth);
            e += select(0u, 1u, key == kth);
        }
        if a != 0u {
            atomicAdd(&above, a);
        }
        if e != 0u {
            atomicAdd(&equal, e);
        }
    }
    workgroupBarrier();
    if t < params.tiles && lid == 0u {
        counts[t] = atomicLoad(&above);
        counts[params.tiles + t] = atomicLoad(&equal);
    }
}
