// Radix select, a digit's pick: one workgroup per row finds the digit that holds the row's
// k-th key (counting from the largest select key), adds it to the row's prefix, keeps how many
// keys of that prefix are still to take, and clears the histogram for the next digit. Each of
// the 64 invocations holds four digits; one barrier shares their sums.

@group(0) @binding(2) var<storage, read_write> hist: array<u32>;
@group(0) @binding(4) var<storage, read_write> state: array<u32>;

// The keys of each invocation's four digits.
var<workgroup> sums: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let row = tile_of(wid);
    let live = row < params.tiles;
    var c = vec4<u32>(0u, 0u, 0u, 0u);
    var need = params.k;
    var prefix = 0u;
    if live {
        let at = row * 256u + 4u * lid;
        c = vec4<u32>(hist[at], hist[at + 1u], hist[at + 2u], hist[at + 3u]);
        hist[at] = 0u;
        hist[at + 1u] = 0u;
        hist[at + 2u] = 0u;
        hist[at + 3u] = 0u;
        if params.shift < 24u {
            prefix = state[2u * row];
            need = state[2u * row + 1u];
        }
    }
    sums[lid] = c.x + c.y + c.z + c.w;
    // Every invocation has read the row's state before one of them writes it.
    storageBarrier();
    workgroupBarrier();
    // Keys whose digit is above this invocation's four.
    var above = 0u;
    for (var j = lid + 1u; j < 64u; j++) {
        above += sums[j];
    }
    for (var d = 3; d >= 0; d--) {
        let count = c[d];
        if live && above < need && need <= above + count {
            state[2u * row] = prefix | ((4u * lid + u32(d)) << params.shift);
            state[2u * row + 1u] = need - above;
        }
        above += count;
    }
}
