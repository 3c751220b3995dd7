// Prefix scans (inclusive and exclusive; add, min, max) of rows, tile by tile: what every scan
// pass shares (parameters, tile geometry, the decoupled look-back). The passes themselves are in
// scan/passes.wgsl.
//
// Specialised by a prelude (see src/kernels/scan.rs, ScanVariant) that defines:
//   const WG, K, TILE            workgroup size, vec4 slots per thread, elements per tile (WG*4*K)
//   const EXCLUSIVE, PUBLISH_FALLBACK, VEC_LOADS, VEC_STORES: bool
//   alias R                      value type read and written (f32, i32, u32)
//   alias V                      what the scan combines: R, or i32 keys for float min/max
//   fn in_v(x: R) -> V, fn out_v(v: V) -> R (and vec4 forms in_v4, out_v4)
//   fn identity() -> V, fn combine(a: V, b: V) -> V, fn combine4(a, b: vec4<V>) -> vec4<V>
//   fn load_elem(e: u32) -> V, fn load_slot(q: u32) -> vec4<V>   (elements 4q..4q+3)
//   fn store_elem(e: u32, v: V), fn store_slot(q: u32, v: vec4<V>)
//   group_scan4                  the scan across a group of lanes (scan/group_tree.wgsl or
//                                scan/group_subgroup.wgsl)
//
// Geometry. The input is `rows` rows of `len` elements; tiles never cross rows, so a row is
// `tpr` tiles and tile `t` covers elements [start, end) of row t / tpr. A tile's slots sit at
// `base`. Where SHIFTED (rows whose length is not a multiple of 4, with vec4 access), `base` is
// the multiple of 4 at or before `start`: a row that does not start on a 16-byte boundary is
// tiled from the boundary before it, so its slots are still whole vec4 loads and stores, and the
// elements of a slot outside [start, end) are loaded as the identity and not stored. Such rows
// need up to 3 elements more than `len` in their tiles (the host counts `tpr` with them, so a
// row's last tile may be empty). Otherwise `base` is `start`.
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
    // Bit 5: reduce-then-scan's passes take reversed runs of tiles (REVERSED_RUNS). Bit 6: they
    // take runs and keep one total per run (RUN_TOTALS). Bit 7: SELF_CLEAN.
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

// Where an invocation works: local_invocation_index, its group (subgroup, or the whole
// workgroup without subgroups) and its lane within the group.
struct Lane {
    lid: u32,
    g: u32,
    lane: u32,
}

// The groups of a workgroup: lanes per group, groups per workgroup. The same in every invocation,
// and kept apart from Lane: WGSL's uniformity analysis takes a struct as one value, so these
// would count as per-invocation values inside Lane, and loops bounded by them hold subgroup
// operations.
struct Groups {
    size: u32,
    count: u32,
}

struct TileGeo {
    // Where slot 0 starts (a multiple of 4).
    base: u32,
    start: u32,
    end: u32,
    // The first tile of its row (no carry from before).
    first: bool,
}

@group(0) @binding(3) var<uniform> params: Params;
// Look-back status (word 0: tile counter; then two words per tile).
@group(0) @binding(4) var<storage, read_write> aux: array<atomic<u32>>;
// The downsweep's tile totals (scanned, or unscanned for the fused downsweep), as bits: read
// only, so that the downsweeps of scans side by side wait for their totals at one barrier.
@group(0) @binding(5) var<storage, read> carries: array<u32>;

const FLAG_READY: u32 = 0x40000000u;
const FLAG_INCLUSIVE: u32 = 0x80000000u;
const FLAG_MASK: u32 = 0xc0000000u;
const FORCE_FALLBACK: u32 = 1u;
const AGGREGATES_ONLY: u32 = 2u;
const HIDE_SOME: u32 = 4u;
// Reduce-then-scan's passes over the input take contiguous runs of tiles (scan/passes.wgsl,
// first_tile, next_tile).
const REVERSED_RUNS: u32 = 32u;
// Reduce-then-scan of one row in two passes (scan/passes.wgsl, reduce_entry, scan_entry): both
// passes take contiguous runs of tiles; the reduction keeps one total per run, and the downsweep
// combines the totals of the runs before its own once, then carries its tiles' totals along.
const RUN_TOTALS: u32 = 64u;
// Look-back in the context's states, zero before the scan (aux: the tile counter, two words per
// tile, then the count of finished workgroups): the last workgroup to finish zeroes them again
// (clean_up), so no pass clears them before the next scan.
const SELF_CLEAN: u32 = 128u;

var<workgroup> wg_tile: u32;
const DONE_BIT: u32 = 0x80000000u;

// One step of the look-back: how many of the window's nearest states were consumed (all ready),
// whether the last of them was inclusive (the walk is over), and the consumed states combined.
// Invocation 0 writes it to workgroup memory and every invocation reads it back with one
// workgroupUniformLoad, so the walk's control flow is uniform.
struct Step {
    // The consumed count, with DONE_BIT set when the walk is over.
    code: u32,
    value: V,
}

var<workgroup> wg_step: Step;

// What window position w of a look-back step (window_step) reads: the state of tile lb - w, or
// an inclusive identity past the row's first tile.
fn window_peek(w: u32, lb: u32, row_first: u32) -> Peek {
    var st = Peek(true, true, identity());
    if lb - row_first >= w {
        st = peek(lb - w, row_first);
    }
    return st;
}

fn tile_geo(t: u32) -> TileGeo {
    let row = t / params.tpr;
    let j = t - row * params.tpr;
    let row_start = row * params.len;
    var base = row_start + j * TILE;
    var start = base;
    if SHIFTED {
        base = (row_start & ~3u) + j * TILE;
        start = max(base, row_start);
    }
    let end = max(start, min(min(base + TILE, row_start + params.len), params.total));
    return TileGeo(base, start, end, j == 0u);
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
// The look-back reads a window of WG predecessors at once: position w reads the state of tile
// lb - w. window_step finds the nearest inclusive state and the nearest state that is not ready;
// the ready states before the first that is not are consumed, and an inclusive one ends the
// walk. On the H200 this took a 2^28-element scan from 2.0 ms (one state per step) to about
// 1.1 ms. What window_step decides reaches every invocation through workgroupUniformLoad, so all
// control flow here is uniform (the fallback's scan, with its barriers and subgroup operations,
// runs in uniform control flow); the carry, which is not uniform to WGSL's analysis (it combines
// values read from workgroup memory), travels apart from the walk's state, through a pointer.

// The nearest inclusive and not-ready window positions w, as WG - w (0: none; workgroup memory
// starts zeroed and is zeroed again after each step).
var<workgroup> wg_nearest_inclusive: atomic<u32>;
var<workgroup> wg_nearest_not_ready: atomic<u32>;
var<workgroup> wg_partials: array<V, WG>;

// The combination of every invocation's `v`, valid in invocation 0: a tree in shared memory.
// (No subgroup operations: a subgroup reduction in this place gave wrong sums on two drivers.
// subgroupAdd of integers on the H200 came out short by one, in two variants, the
// later one with every invocation reading its window position in uniform control flow; and a
// shuffle butterfly on lavapipe, in a variant whose reads diverged. The tree was right on both,
// and on the H200 a step built on ballots and subgroupAdd was slower than the tree: 1172 against
// 1117 µs for a 2^28-element scan.)
fn group_combine(ln: Lane, v: V) -> V {
    wg_partials[ln.lid] = v;
    for (var d = WG / 2u; d > 0u; d >>= 1u) {
        workgroupBarrier();
        if ln.lid < d {
            wg_partials[ln.lid] = combine(wg_partials[ln.lid], wg_partials[ln.lid + d]);
        }
    }
    workgroupBarrier();
    return wg_partials[0];
}

// One step of the look-back (below): window position w = lid.
fn window_step(ln: Lane, lb: u32, row_first: u32) -> Step {
    let st = window_peek(ln.lid, lb, row_first);
    if st.inclusive {
        atomicMax(&wg_nearest_inclusive, WG - ln.lid);
    }
    if !st.ready {
        atomicMax(&wg_nearest_not_ready, WG - ln.lid);
    }
    workgroupBarrier();
    let inclusive = WG - atomicLoad(&wg_nearest_inclusive);
    let not_ready = WG - atomicLoad(&wg_nearest_not_ready);
    let done = inclusive < not_ready;
    let n = select(not_ready, inclusive + 1u, done);
    let v = group_combine(ln, select(identity(), st.value, ln.lid < n));
    // Every invocation has read the previous step before it is replaced (group_combine's last
    // barrier comes after the loads above).
    if ln.lid == 0u {
        wg_step = Step(n | select(0u, DONE_BIT, done), v);
        atomicStore(&wg_nearest_inclusive, 0u);
        atomicStore(&wg_nearest_not_ready, 0u);
    }
    return workgroupUniformLoad(&wg_step);
}

// Where a walk stands: the nearest tile not consumed yet; whether an inclusive state (or the
// row's first tile) was consumed; consecutive steps that consumed nothing. Uniform: the consumed
// states' combination (the carry) is kept apart, in the caller's variable.
struct Walk {
    lb: u32,
    done: bool,
    spins: u32,
}

// Walks back from `w.lb`, combining predecessors' states into `*carry`, until it consumes an
// inclusive state (the result is done) or a predecessor has stayed not ready for more than
// `spin_limit` steps (not done, `lb` that predecessor: the caller then reduces its tile itself,
// see lookback_entry, and walks on from the tile before it).
fn walk(ln: Lane, t: u32, w: Walk, carry: ptr<function, V>) -> Walk {
    // The row's first tile: it publishes an inclusive state at once, so no walk goes past it.
    let row_first = t - t % params.tpr;
    var lb = w.lb;
    var spins = w.spins;
    var done = false;
    loop {
        if spins > params.spin_limit {
            break;
        }
        let step = window_step(ln, lb, row_first);
        let consumed = step.code & ~DONE_BIT;
        *carry = combine(step.value, *carry);
        if (step.code & DONE_BIT) != 0u {
            done = true;
            break;
        }
        if consumed > 0u {
            lb -= consumed;
            spins = 0u;
        } else {
            spins += 1u;
        }
    }
    return Walk(lb, done, spins);
}

// The fallback's total of predecessor `tile`, computed exactly as its owner computes it:
// published where that is bit-identical, which helps other waiters and never overwrites a state
// already published (the flags are the high bits; invocation 0 only).
fn publish_fallback(ln: Lane, tile: u32, total: V) {
    if ln.lid == 0u && PUBLISH_FALLBACK && (params.flags & FORCE_FALLBACK) == 0u {
        let b = bitcast<u32>(total);
        atomicMax(&aux[1u + 2u * tile], FLAG_READY | (b & 0xffffu));
        atomicMax(&aux[2u + 2u * tile], FLAG_READY | (b >> 16u));
    }
}
