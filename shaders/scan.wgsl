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
    // aggregates back to the row's first tile. Bit 2: the states of tiles t with t % 3 == 1 are
    // never seen as ready, so windows are consumed in part and walks fall back past those tiles.
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
const HIDE_SOME: u32 = 4u;
// Measurements only (results are wrong): bit 3 counts the look-back's work (window steps, steps
// that consumed nothing, fallbacks, states consumed) into the tile's first four outputs; bit 4
// skips the wait (the carry is the identity), to time everything else.
const STATS: u32 = 8u;
const NO_WAIT: u32 = 16u;
var<private> stats: vec4<u32>;

var<workgroup> wg_tile: u32;
// One look-back step's outcome: states consumed (low bits) and DONE_BIT; and their combination.
var<workgroup> wg_step: u32;
var<workgroup> wg_step_value: V;
const DONE_BIT: u32 = 0x80000000u;

struct Step {
    // The window's nearest states consumed (all ready).
    consumed: u32,
    // The last consumed state was inclusive: the walk is over.
    done: bool,
    // The consumed states combined.
    value: V,
}

var<workgroup> wg_nearest_inclusive: atomic<u32>;
var<workgroup> wg_nearest_not_ready: atomic<u32>;
const NONE: u32 = 0xffffffffu;

// The combination of every invocation's `v`, valid in invocation 0: a tree in shared memory.
// (No subgroup operations here: this runs after the divergent reads of the window, and a
// subgroup reduction in this place gave wrong sums on two drivers — subgroupAdd of integers on
// the H200 (short by one per subgroup), and a shuffle butterfly on lavapipe in a trial variant
// where predecessors were often not ready. The tree was right on both, and on the H200 it was
// as fast as either.)
var<workgroup> wg_partials: array<V, WG>;

fn group_combine(ln: Lane, v: V) -> V {
    wg_partials[ln.lid] = v;
    for (var d = WG / 2u; d > 0u; d >>= 1u) {
        workgroupBarrier();
        if ln.lid < d {
            wg_partials[ln.lid] = combine_v(wg_partials[ln.lid], wg_partials[ln.lid + d]);
        }
    }
    workgroupBarrier();
    return wg_partials[0];
}

// One step of the look-back: `st` is the state of tile lb - lid (or an inclusive identity past
// the row's first tile).
fn window_step(ln: Lane, st: Peek) -> Step {
    if st.inclusive {
        atomicMin(&wg_nearest_inclusive, ln.lid);
    }
    if !st.ready {
        atomicMin(&wg_nearest_not_ready, ln.lid);
    }
    workgroupBarrier();
    let inclusive = atomicLoad(&wg_nearest_inclusive);
    let not_ready = atomicLoad(&wg_nearest_not_ready);
    let done = inclusive < not_ready;
    let n = select(min(not_ready, WG), inclusive + 1u, done);
    let v = group_combine(ln, select(identity_v(), st.value, ln.lid < n));
    return share_step(ln, n, done, v);
}

// Shares invocation 0's step with the workgroup (uniform from here on).
fn share_step(ln: Lane, consumed: u32, done: bool, value: V) -> Step {
    // Every invocation has read the previous step before it is replaced.
    workgroupBarrier();
    if ln.lid == 0u {
        wg_step = consumed | select(0u, DONE_BIT, done);
        wg_step_value = value;
        // Every invocation read these in window_step, before group_combine's barrier.
        atomicStore(&wg_nearest_inclusive, NONE);
        atomicStore(&wg_nearest_not_ready, NONE);
    }
    let code = workgroupUniformLoad(&wg_step);
    return Step(code & ~DONE_BIT, (code & DONE_BIT) != 0u, wg_step_value);
}

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

// A predecessor's published state, as one lane of the look-back window reads it.
struct Peek {
    // Both halves carry the same non-zero flag (and the test aid does not hide it).
    ready: bool,
    inclusive: bool,
    value: V,
}

// A row's first tile has no predecessor: its total is its inclusive prefix, whichever flag a
// state of it carries (a fallback may have published it as an aggregate).
fn peek(tile: u32, row_first: u32) -> Peek {
    let w0 = atomicLoad(&aux[1u + 2u * tile]);
    let w1 = atomicLoad(&aux[2u + 2u * tile]);
    let f = w0 & FLAG_MASK;
    let hidden = (params.flags & FORCE_FALLBACK) != 0u
        || ((params.flags & HIDE_SOME) != 0u && tile % 3u == 1u);
    let ok = !hidden && f != 0u && f == (w1 & FLAG_MASK);
    let inclusive = ok && (f == FLAG_INCLUSIVE || tile == row_first);
    return Peek(ok, inclusive, bitcast<V>((w0 & 0xffffu) | (w1 << 16u)));
}

// Decoupled look-back with fallback: the combined total of the tiles before `t` in its row.
// Each tile's state is two 32-bit words (16 bits of the value and a 2-bit flag each), so no
// 64-bit atomics are needed and a reader only uses a state whose two halves carry the same flag.
//
// The look-back reads a window of WG predecessors at once: invocation i reads the state of tile
// lb - i. window_step (above) finds the nearest inclusive state and the nearest state that is not
// ready; the ready states before the first that is not are consumed, and an inclusive one ends
// the walk. On the H200 this took a 2^28-element scan from 2.0 ms (one state per step) to about
// 1.2 ms; a window of one subgroup measured the same as one of the workgroup. What window_step
// decides reaches every invocation through workgroupUniformLoad, so all control flow here is
// uniform (the fallback's scan, which uses subgroup operations, runs in uniform control flow).
fn lookback(t: u32, geo: TileGeo, total: V, ln: Lane) -> V {
    if ln.lid == 0u {
        publish(t, total, select(FLAG_READY, FLAG_INCLUSIVE, geo.first));
    }
    if geo.first || (params.flags & NO_WAIT) != 0u {
        return identity_v();
    }
    // The row's first tile: it publishes an inclusive state at once, so no walk goes past it.
    let row_first = t - t % params.tpr;
    var carry = identity_v();
    var lb = t - 1u;
    var spins = 0u;
    if ln.lid == 0u {
        atomicStore(&wg_nearest_inclusive, NONE);
        atomicStore(&wg_nearest_not_ready, NONE);
    }
    workgroupBarrier();
    loop {
        var st = Peek(true, true, identity_v());
        if lb - row_first >= ln.lid {
            st = peek(lb - ln.lid, row_first);
        }
        let step = window_step(ln, st);
        stats += vec4<u32>(1u, select(0u, 1u, step.consumed == 0u), 0u, step.consumed);
        carry = combine_v(step.value, carry);
        if step.done {
            break;
        }
        if step.consumed > 0u {
            lb -= step.consumed;
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
        stats.z += 1u;
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
