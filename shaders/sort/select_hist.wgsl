// Radix select, a digit's histogram: each workgroup counts the digit (bits `shift` to
// `shift + 7` of the select key) of the keys of its tile that match the digits its row has
// chosen so far (all keys in the first pass), and adds its counts to the row's 256.

const HIST_TILE: u32 = 4096u;

@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> hist: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read> state: array<u32>;

var<workgroup> counts: array<atomic<u32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let t = tile_of(wid);
    atomicStore(&counts[lid], 0u);
    workgroupBarrier();
    var row = 0u;
    if t < params.tiles {
        let span = tile_span(t, HIST_TILE);
        row = span.x;
        var prefix = 0u;
        var high = 0u;
        if params.shift < 24u {
            prefix = state[2u * row];
            high = 0xffffffffu << (params.shift + 8u);
        }
        for (var i = span.y + lid; i < span.z; i += 256u) {
            let key = select_key(load_key(i));
            if (key & high) == (prefix & high) {
                atomicAdd(&counts[(key >> params.shift) & 255u], 1u);
            }
        }
    }
    workgroupBarrier();
    if t < params.tiles {
        let c = atomicLoad(&counts[lid]);
        if c != 0u {
            atomicAdd(&hist[row * 256u + lid], c);
        }
    }
}
