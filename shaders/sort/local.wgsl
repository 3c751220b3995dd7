// Sorts of short rows: one workgroup sorts a row of at most ROW_MAX keys in workgroup memory,
// a bitonic network over (key, index) pairs: every pair differs, so equal keys come out in
// index order (stable) and the result is the same on every run. It writes the row's keys a
// word each (16-bit keys in the low half, packed after by the narrow pass), and with
// SORT_IOTA each key's index in the row, with SORT_PAIRS the value at that index. Only the
// first `k` of each row are written (`k` a row; top-k), or with SORT_KTH the k-th alone (one
// a row; kthvalue).

const ROW_MAX: u32 = 1024u;

@group(0) @binding(0) var<storage, read> values_in: array<u32>;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> values_out: array<u32>;

// The row's keys in sort order (padding: the largest key and index), and their indices.
var<workgroup> okeys: array<u32, ROW_MAX>;
var<workgroup> order: array<u32, ROW_MAX>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let row = tile_of(wid);
    let live = row < params.tiles;
    let len = params.len;
    // The network's width: the row's length rounded up to a power of two.
    var size = 1u;
    while size < len {
        size <<= 1u;
    }
    let start = row * len;
    for (var e = lid; e < size; e += 256u) {
        if live && e < len {
            okeys[e] = ordered(load_key(start + e));
            order[e] = e;
        } else {
            okeys[e] = 0xffffffffu;
            order[e] = 0xffffffffu;
        }
    }
    workgroupBarrier();
    for (var k = 2u; k <= size; k <<= 1u) {
        for (var j = k >> 1u; j > 0u; j >>= 1u) {
            for (var t = lid; t < size / 2u; t += 256u) {
                let e = 2u * j * (t / j) + t % j;
                let f = e + j;
                let ke = okeys[e];
                let kf = okeys[f];
                let ie = order[e];
                let jf = order[f];
                let after = ke > kf || (ke == kf && ie > jf);
                // Ascending where bit k of e is clear, descending where it is set.
                if after == ((e & k) == 0u) {
                    okeys[e] = kf;
                    okeys[f] = ke;
                    order[e] = jf;
                    order[f] = ie;
                }
            }
            workgroupBarrier();
        }
    }
    let kth = (params.flags & SORT_KTH) != 0u;
    if live {
        for (var e = lid; e < min(len, params.k); e += 256u) {
            var at = row * params.k + e;
            if kth {
                if e + 1u != params.k {
                    continue;
                }
                at = row;
            }
            let i = order[e];
            keys_out[at] = load_key(start + i);
            if (params.flags & SORT_IOTA) != 0u {
                values_out[at] = i;
            } else if (params.flags & SORT_PAIRS) != 0u {
                values_out[at] = values_in[start + i];
            }
        }
    }
}
