// Prefix scans (inclusive and exclusive; add, min, max) of rows, tile by tile: what every scan
// pass shares (parameters, tile geometry, the decoupled look-back). The passes themselves are in
// scan_vec.wgsl.
//
// Specialised by a prelude (see src/kernels.rs, ScanVariant) that defines:
//   const WG, K, TILE            workgroup size, vec4 slots per thread, elements per tile (WG*4*K)
//   const EXCLUSIVE, PUBLISH_FALLBACK, VEC_LOADS, VEC_STORES: bool
//   alias V                      value type (f32, i32, u32)
//   fn identity_v() -> V, fn combine_v(a: V, b: V) -> V, fn combine_v4(a, b: vec4<V>) -> vec4<V>
//   fn load_elem(e: u32) -> V, fn load_slot(q: u32) -> vec4<V>   (elements 4q..4q+3)
//   fn store_elem(e: u32, v: V), fn store_slot(q: u32, v: vec4<V>)
//   group_scan4                  the scan across a group of lanes (scan_vec_tree.wgsl or
//                                scan_vec_subgroup.wgsl)
//
// Geometry. The input is `rows` rows of `len` elements; tiles never cross rows, so a row is
// `tpr` tiles and tile `t` covers elements [start, end) of row t / tpr.
//
// Carries between tiles of a row (modes): none (one tile per row); read from an array of
// scanned tile totals (reduce-then-scan's downsweep); or found by decoupled look-back with
// fallback (single pass). The look-back never waits unboundedly: after `spin_limit` reads of a
// predecessor that is not ready, the workgroup reduces that predecessor's tile itself (its input
// is read-only) and goes on, so progress never depends on how workgroups are scheduled (Metal
// gives no forward-progress guarantee between workgroups).

struct Params {
    // Elements in the whole array.
    total: u32,
    // Tiles per row.
    tpr: u32,
    // Elements per row.
    len: u32,
    // Rows.
    rows: u32,
    // Tiles in the dispatch.
    n_tiles: u32,
    // Look-back: reads of a predecessor that is not ready before falling back.
    spin_limit: u32,
    // Testing aids. Bit 0: look-back ignores published states (always falls back). Bit 1: tiles
    // after the first of a row never publish an inclusive state, so every look-back walks
    // aggregates back to the row's first tile.
    flags: u32,
    // Workgroups along x (tiles are numbered wid.y * groups_x + wid.x).
    groups_x: u32,
    // Workgroups launched (whole-tile variants loop over tiles t, t + groups, ...).
    groups: u32,
    pad1: u32,
    pad2: u32,
    pad3: u32,
    pad: vec4<u32>,
}

struct Lane {
    // local_invocation_index
    lid: u32,
    // Group index, lane within the group, lanes per group, groups per workgroup.
    g: u32,
    lane: u32,
    size: u32,
    n_groups: u32,
}

struct TileGeo {
    start: u32,
    end: u32,
    // The first tile of its row (no carry from before).
    first: bool,
}

@group(0) @binding(3) var<uniform> params: Params;
// Look-back status (word 0: tile counter; then two words per tile) or scanned tile totals.
@group(0) @binding(4) var<storage, read_write> aux: array<atomic<u32>>;

const FLAG_READY: u32 = 0x40000000u;
const FLAG_INCLUSIVE: u32 = 0x80000000u;
const FLAG_MASK: u32 = 0xc0000000u;
const FORCE_FALLBACK: u32 = 1u;
const AGGREGATES_ONLY: u32 = 2u;

var<workgroup> wg_tile: u32;
var<workgroup> wg_w0: u32;
var<workgroup> wg_w1: u32;

fn tile_geo(t: u32) -> TileGeo {
    let row = t / params.tpr;
    let j = t - row * params.tpr;
    let row_start = row * params.len;
    let start = row_start + j * TILE;
    let end = min(min(start + TILE, row_start + params.len), params.total);
    return TileGeo(start, end, j == 0u);
}

fn publish(t: u32, v: V, flag: u32) {
    if flag == FLAG_INCLUSIVE && (params.flags & AGGREGATES_ONLY) != 0u && !tile_geo(t).first {
        return;
    }
    let b = bitcast<u32>(v);
    atomicStore(&aux[1u + 2u * t], flag | (b & 0xffffu));
    atomicStore(&aux[2u + 2u * t], flag | (b >> 16u));
}

// Decoupled look-back with fallback: the combined total of the tiles before `t` in its row.
// Each tile's state is two 32-bit words (16 bits of the value and a 2-bit flag each), so no
// 64-bit atomics are needed and a reader only uses a state whose two halves carry the same flag.
// Invocation 0 alone touches the states; what it reads reaches every invocation through
// workgroupUniformLoad, so all control flow here is uniform (subgroup operations in the
// fallback's scan never run after a divergent loop).
fn lookback(t: u32, geo: TileGeo, total: V, ln: Lane) -> V {
    if ln.lid == 0u {
        publish(t, total, select(FLAG_READY, FLAG_INCLUSIVE, geo.first));
    }
    if geo.first {
        return identity_v();
    }
    var carry = identity_v();
    var lb = t - 1u;
    var spins = 0u;
    loop {
        // Every invocation has read the previous words before invocation 0 replaces them.
        workgroupBarrier();
        if ln.lid == 0u {
            wg_w0 = atomicLoad(&aux[1u + 2u * lb]);
            wg_w1 = atomicLoad(&aux[2u + 2u * lb]);
        }
        let w0 = workgroupUniformLoad(&wg_w0);
        let w1 = workgroupUniformLoad(&wg_w1);
        let f = w0 & FLAG_MASK;
        if (params.flags & FORCE_FALLBACK) == 0u && f != 0u && f == (w1 & FLAG_MASK) {
            carry = combine_v(bitcast<V>((w0 & 0xffffu) | (w1 << 16u)), carry);
            if f == FLAG_INCLUSIVE || tile_geo(lb).first {
                break;
            }
            lb -= 1u;
            spins = 0u;
            continue;
        }
        if spins < params.spin_limit {
            spins += 1u;
            continue;
        }
        // Fallback: reduce the blocking tile ourselves, the same way its owner does.
        let fgeo = tile_geo(lb);
        let ft = tile_total(ln, fgeo);
        if ln.lid == 0u && PUBLISH_FALLBACK && (params.flags & FORCE_FALLBACK) == 0u {
            // Helps other waiters; never overwrites a state already published (the flags are
            // the high bits). Only where the total is bit-identical however computed.
            let b = bitcast<u32>(ft);
            atomicMax(&aux[1u + 2u * lb], FLAG_READY | (b & 0xffffu));
            atomicMax(&aux[2u + 2u * lb], FLAG_READY | (b >> 16u));
        }
        carry = combine_v(ft, carry);
        if fgeo.first {
            break;
        }
        lb -= 1u;
        spins = 0u;
    }
    if ln.lid == 0u {
        publish(t, combine_v(carry, total), FLAG_INCLUSIVE);
    }
    return carry;
}
