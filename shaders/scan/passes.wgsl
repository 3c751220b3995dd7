// The scan passes. Tiles: each thread holds its K = 4 or 8 slots as vec4 registers (no arrays,
// nothing indexed at run time, so the values stay in registers; the last four fields of Slots
// are used only where K is 8, and fold away elsewhere); the group step is group_scan4
// (scan/group_tree.wgsl or scan/group_subgroup.wgsl), which scans four chunks' slot totals as one
// vec4, once for K = 4 and twice for K = 8. Short rows: one invocation per row (serial_entry).

struct Slots {
    a: vec4<V>,
    b: vec4<V>,
    c: vec4<V>,
    d: vec4<V>,
    e: vec4<V>,
    f: vec4<V>,
    g: vec4<V>,
    h: vec4<V>,
}

struct Scanned {
    // Each slot's inclusive scan of its own four elements.
    s: Slots,
    // Each slot's exclusive prefix within the tile.
    pre: vec4<V>,
    pre2: vec4<V>,
    // The tile's total.
    total: V,
}

struct GroupScan4 {
    // Exclusive prefix across the group's lanes, per chunk.
    ex: vec4<V>,
    // Each chunk's total over the group.
    ct: vec4<V>,
}

var<workgroup> wg_groups: array<V, WG>;

fn slot_offset(ln: Lane, gr: Groups, k: u32) -> u32 {
    return (ln.g * gr.size * K + k * gr.size + ln.lane) * 4u;
}

// Whether each element of the slot at e0 lies in the tile (only SHIFTED tiles have slots that
// begin before `start`).
fn in_tile(geo: TileGeo, e0: u32) -> vec4<bool> {
    let e = vec4<u32>(e0) + vec4<u32>(0u, 1u, 2u, 3u);
    let below_end = e < vec4<u32>(geo.end);
    if SHIFTED {
        return below_end & (e >= vec4<u32>(geo.start));
    }
    return below_end;
}

// The slot at e0 lies wholly in the tile; lies wholly outside it.
fn slot_inside(geo: TileGeo, e0: u32) -> bool {
    return (!SHIFTED || e0 >= geo.start) && e0 + 4u <= geo.end;
}

fn slot_outside(geo: TileGeo, e0: u32) -> bool {
    return e0 >= geo.end || (SHIFTED && e0 + 4u <= geo.start);
}

fn load4(geo: TileGeo, o: u32) -> vec4<V> {
    let e0 = geo.base + o;
    if VEC_LOADS && slot_inside(geo, e0) {
        return load_slot(e0 >> 2u);
    }
    var v = vec4<V>(identity());
    if slot_outside(geo, e0) {
        return v;
    }
    let keep = in_tile(geo, e0);
    if VEC_LOADS {
        // A slot at a row's edge: the whole slot is in the buffer (it is padded to 16 bytes).
        return select(v, load_slot(e0 >> 2u), keep);
    }
    if keep.x {
        v.x = load_elem(e0);
    }
    if keep.y {
        v.y = load_elem(e0 + 1u);
    }
    if keep.z {
        v.z = load_elem(e0 + 2u);
    }
    if keep.w {
        v.w = load_elem(e0 + 3u);
    }
    return v;
}

fn no_slots() -> Slots {
    let i = vec4<V>(identity());
    return Slots(i, i, i, i, i, i, i, i);
}

fn load_tile4(geo: TileGeo, ln: Lane, gr: Groups) -> Slots {
    var x = no_slots();
    x.a = load4(geo, slot_offset(ln, gr, 0u));
    x.b = load4(geo, slot_offset(ln, gr, 1u));
    x.c = load4(geo, slot_offset(ln, gr, 2u));
    x.d = load4(geo, slot_offset(ln, gr, 3u));
    if K > 4u {
        x.e = load4(geo, slot_offset(ln, gr, 4u));
        x.f = load4(geo, slot_offset(ln, gr, 5u));
        x.g = load4(geo, slot_offset(ln, gr, 6u));
        x.h = load4(geo, slot_offset(ln, gr, 7u));
    }
    return x;
}

fn slot_scan(x: vec4<V>) -> vec4<V> {
    let y = combine(x.x, x.y);
    let z = combine(y, x.z);
    return vec4<V>(x.x, y, z, combine(z, x.w));
}

// Scans a loaded tile; the total is the same value, computed the same way, in every thread and
// in every workgroup that scans this tile.
fn local_scan4(ln: Lane, gr: Groups, x: Slots) -> Scanned {
    var s = no_slots();
    s.a = slot_scan(x.a);
    s.b = slot_scan(x.b);
    s.c = slot_scan(x.c);
    s.d = slot_scan(x.d);
    let gs = group_scan4(ln, gr, vec4<V>(s.a.w, s.b.w, s.c.w, s.d.w));
    let r1 = gs.ct.x;
    let r2 = combine(r1, gs.ct.y);
    let r3 = combine(r2, gs.ct.z);
    var run = combine(r3, gs.ct.w);
    var pre = vec4<V>(gs.ex.x, combine(r1, gs.ex.y), combine(r2, gs.ex.z), combine(r3, gs.ex.w));
    var pre2 = vec4<V>(identity());
    if K > 4u {
        s.e = slot_scan(x.e);
        s.f = slot_scan(x.f);
        s.g = slot_scan(x.g);
        s.h = slot_scan(x.h);
        let gs2 = group_scan4(ln, gr, vec4<V>(s.e.w, s.f.w, s.g.w, s.h.w));
        let r4 = run;
        let r5 = combine(r4, gs2.ct.x);
        let r6 = combine(r5, gs2.ct.y);
        let r7 = combine(r6, gs2.ct.z);
        run = combine(r7, gs2.ct.w);
        pre2 = vec4<V>(combine(r4, gs2.ex.x), combine(r5, gs2.ex.y), combine(r6, gs2.ex.z), combine(r7, gs2.ex.w));
    }
    if ln.lane == 0u {
        wg_groups[ln.g] = run;
    }
    workgroupBarrier();
    var before = identity();
    var all = identity();
    for (var i = 0u; i < gr.count; i += 1u) {
        let t = wg_groups[i];
        if i < ln.g {
            before = combine(before, t);
        }
        all = combine(all, t);
    }
    workgroupBarrier();
    pre = combine4(vec4<V>(before), pre);
    pre2 = combine4(vec4<V>(before), pre2);
    return Scanned(s, pre, pre2, all);
}

// The tiles of a pass that loops. Workgroup w takes tiles w, w + groups, .... With
// REVERSED_RUNS (set by the host for reduce-then-scan over inputs about the size of an L2 cache;
// see ContextOptions::scan_reversed_runs_bytes), the tile reduction (mode 1) and the downsweep
// (mode 2) take contiguous runs of tiles instead, the reduction from the array's start and the
// downsweep from its end, so the downsweep first reads what the reduction read last, while it
// may still be in L2 (H200: 2^24 elements 6 % faster). With RUN_TOTALS both passes take runs
// (reduce_entry, scan_entry). A tile number of n_tiles or more (as NO_TILE) ends the
// workgroup's loop.
const NO_TILE: u32 = 0xffffffffu;

fn runs(mode: u32) -> bool {
    return mode != 0u && (params.flags & (REVERSED_RUNS | RUN_TOTALS)) != 0u;
}

fn run_totals() -> bool {
    return (params.flags & RUN_TOTALS) != 0u;
}

// The run workgroup w takes: with RUN_TOTALS and REVERSED_RUNS, the downsweep takes the runs
// from the last (their tiles in order, so that each carries its total to the next).
fn run_of(w: u32, mode: u32) -> u32 {
    let down = mode == 2u || mode == 5u;
    return select(w, params.groups - 1u - w, down && (params.flags & REVERSED_RUNS) != 0u);
}

// Workgroup w's tile number i of its run.
fn run_tile(w: u32, i: u32, mode: u32) -> u32 {
    let per = (params.n_tiles + params.groups - 1u) / params.groups;
    if w >= params.groups {
        return NO_TILE;
    }
    if run_totals() {
        let k = run_of(w, mode) * per + i;
        return select(NO_TILE, k, i < per && k < params.n_tiles);
    }
    let k = w * per + i;
    if i >= per || k >= params.n_tiles {
        return NO_TILE;
    }
    return select(k, params.n_tiles - 1u - k, mode == 2u || mode == 5u);
}

fn first_tile(w: u32, mode: u32) -> u32 {
    if runs(mode) {
        return run_tile(w, 0u, mode);
    }
    return w;
}

fn next_tile(w: u32, i: u32, t: u32, mode: u32) -> u32 {
    if runs(mode) {
        return run_tile(w, i, mode);
    }
    return t + params.groups;
}

// Tile reduction for reduce-then-scan: dst[t] = total of tile t, or with RUN_TOTALS dst[w] =
// total of workgroup w's run (the identity for an empty run; reduce_run). Each workgroup loops
// over its tiles (first_tile, next_tile), loading the next tile before it finishes the current
// one. A tile's total is its slots' totals combined across the workgroup once (group_total), not
// a scan of the tile: like reduce_run's, it need not equal the downsweep's total of the tile.
fn reduce_entry(ln: Lane, gr: Groups, wid_linear: u32) {
    if run_totals() {
        reduce_run(ln, gr, wid_linear);
        return;
    }
    var t = first_tile(wid_linear, 1u);
    var acc = identity();
    if t < params.n_tiles {
        var cur = load_tile4(tile_geo(t), ln, gr);
        var i = 0u;
        loop {
            let total = group_total(ln, gr, slots_total(cur));
            acc = combine(acc, total);
            i += 1u;
            let nt = next_tile(wid_linear, i, t, 1u);
            let more = nt < params.n_tiles;
            if more {
                cur = load_tile4(tile_geo(nt), ln, gr);
            }
            if ln.lid == 0u && !run_totals() {
                store_elem(t, total);
            }
            if !more {
                break;
            }
            t = nt;
        }
    }
    if ln.lid == 0u && run_totals() && wid_linear < params.groups {
        store_elem(wid_linear, acc);
    }
}

// A run's total needs no tile's scan: each invocation combines its slots of every tile of the
// run (the loads of a tile independent of one another), and the workgroup combines the
// invocations' values once at the end. Totals computed this way need not equal those the
// downsweep computes for its tiles (float sums round differently along the two paths, within
// the tolerance of either).
fn reduce_run(ln: Lane, gr: Groups, w: u32) {
    var acc = identity();
    var t = first_tile(w, 1u);
    var i = 0u;
    while t < params.n_tiles {
        // Two tiles' loads in flight before either is summed.
        let x = load_tile4(tile_geo(t), ln, gr);
        let t2 = run_tile(w, i + 1u, 1u);
        var y = no_slots();
        if t2 < params.n_tiles {
            y = load_tile4(tile_geo(t2), ln, gr);
        }
        acc = combine(acc, combine(slots_total(x), slots_total(y)));
        i += 2u;
        t = run_tile(w, i, 1u);
    }
    let total = group_total(ln, gr, acc);
    if ln.lid == 0u && w < params.groups {
        store_elem(w, total);
    }
}

fn slot_total(x: vec4<V>) -> V {
    return combine(combine(x.x, x.y), combine(x.z, x.w));
}

fn slots_total(x: Slots) -> V {
    let t = combine(combine(slot_total(x.a), slot_total(x.b)), combine(slot_total(x.c), slot_total(x.d)));
    if K > 4u {
        return combine(t, combine(combine(slot_total(x.e), slot_total(x.f)), combine(slot_total(x.g), slot_total(x.h))));
    }
    return t;
}

fn store4(geo: TileGeo, o: u32, p: V, s: vec4<V>) {
    let e0 = geo.base + o;
    if slot_outside(geo, e0) {
        return;
    }
    var out: vec4<V>;
    if EXCLUSIVE {
        out = vec4<V>(p, combine(p, s.x), combine(p, s.y), combine(p, s.z));
    } else {
        out = combine4(vec4<V>(p), s);
    }
    if VEC_STORES && slot_inside(geo, e0) {
        store_slot(e0 >> 2u, out);
        return;
    }
    let keep = in_tile(geo, e0);
    if keep.x {
        store_elem(e0, out.x);
    }
    if keep.y {
        store_elem(e0 + 1u, out.y);
    }
    if keep.z {
        store_elem(e0 + 2u, out.z);
    }
    if keep.w {
        store_elem(e0 + 3u, out.w);
    }
}

// Adds `carry` to a scanned tile and stores it.
fn store_tile(ln: Lane, gr: Groups, geo: TileGeo, sc: Scanned, carry: V) {
    let p = combine4(vec4<V>(carry), sc.pre);
    store4(geo, slot_offset(ln, gr, 0u), p.x, sc.s.a);
    store4(geo, slot_offset(ln, gr, 1u), p.y, sc.s.b);
    store4(geo, slot_offset(ln, gr, 2u), p.z, sc.s.c);
    store4(geo, slot_offset(ln, gr, 3u), p.w, sc.s.d);
    if K > 4u {
        let q = combine4(vec4<V>(carry), sc.pre2);
        store4(geo, slot_offset(ln, gr, 4u), q.x, sc.s.e);
        store4(geo, slot_offset(ln, gr, 5u), q.y, sc.s.f);
        store4(geo, slot_offset(ln, gr, 6u), q.z, sc.s.g);
        store4(geo, slot_offset(ln, gr, 7u), q.w, sc.s.h);
    }
}

// Reduce-then-scan in two passes (mode 5) skips the pass that scans the tile totals: the
// downsweep combines the totals before its tiles itself, from the unscanned totals in carries.
// Without RUN_TOTALS (rows of few tiles: the host takes this only for the outer level of a scan
// of at most 4 * WG tiles, at most 4 reads per invocation) each tile combines the totals of the
// tiles before it in its row. With RUN_TOTALS (one row, at most 4 * WG workgroups) each
// workgroup combines the totals of the runs before its own once and carries its tiles' totals
// along the run. A pass and its barrier fewer is much of the time of scans of a few million
// elements.
fn combine_aux(ln: Lane, gr: Groups, lo: u32, hi: u32) -> V {
    var acc = identity();
    for (var j = lo + ln.lid; j < hi; j += WG) {
        acc = combine(acc, in_v(bitcast<R>(carries[j])));
    }
    // Every invocation has read the previous combination from shared memory.
    workgroupBarrier();
    return group_total(ln, gr, acc);
}

fn fused_carry(ln: Lane, gr: Groups, t: u32) -> V {
    return combine_aux(ln, gr, t - t % params.tpr, t);
}

// mode: 0 = one tile per row (no carry), 2 = carry from scanned tile totals in carries, 5 =
// carry combined from unscanned totals in carries (combine_aux). Each workgroup loops over its tiles
// (first_tile, next_tile), loading the next tile as soon as the current one is scanned.
fn scan_entry(ln: Lane, gr: Groups, wid_linear: u32, mode: u32) {
    var t = first_tile(wid_linear, mode);
    if t >= params.n_tiles {
        return;
    }
    var cur = load_tile4(tile_geo(t), ln, gr);
    // With RUN_TOTALS: the carry into the run's next tile.
    var run_carry = identity();
    if mode == 5u && run_totals() {
        run_carry = combine_aux(ln, gr, 0u, run_of(wid_linear, mode));
    }
    var i = 0u;
    loop {
        let geo = tile_geo(t);
        let sc = local_scan4(ln, gr, cur);
        i += 1u;
        let nt = next_tile(wid_linear, i, t, mode);
        if nt < params.n_tiles {
            cur = load_tile4(tile_geo(nt), ln, gr);
        }
        var carry = identity();
        if mode == 2u {
            // Scanned totals, as the pass before stored them (values R).
            carry = in_v(bitcast<R>(carries[t]));
        }
        if mode == 5u {
            if run_totals() {
                carry = run_carry;
                run_carry = combine(run_carry, sc.total);
            } else {
                carry = fused_carry(ln, gr, t);
            }
        }
        store_tile(ln, gr, geo, sc, carry);
        if nt >= params.n_tiles {
            break;
        }
        t = nt;
    }
}

// Decoupled look-back with fallback (mode 3): one tile per workgroup, claimed from the counter
// in aux[0] (tiles start in the order they are claimed, so a tile's predecessors have all
// started). The workgroup loads and scans its own tile, publishes its total and walks back; where
// the walk is done it stores the tile it held across the walk. Where a predecessor stayed not
// ready, the fallback (fall_back) scans tiles in a loop of its own: predecessors' (their totals),
// then its own tile again, which it stores; the tile held across the walk is never held across a
// fallback's tile (on the H200 the fallback's code, never run, made a 2^28 scan 17 % slower when
// it was). The kernel holds two copies of the load, scan and store. With one (the own tile too
// a turn of the fallback's loop) the first cumsum of 2^20 f32 compiled faster (llvmpipe 317 ms
// against 480-500, H100 254 against 410) but scanned slower (H100, 2^21 19.5 µs against 15.9,
// 2^24 107.8 against 95.1); with three, 564-647 ms on llvmpipe.
fn lookback_entry(ln: Lane, gr: Groups) {
    if ln.lid == 0u {
        wg_tile = atomicAdd(&aux[0], 1u);
    }
    let t = workgroupUniformLoad(&wg_tile);
    if t >= params.n_tiles {
        return;
    }
    let geo = tile_geo(t);
    var carry = identity();
    let sc = local_scan4(ln, gr, load_tile4(geo, ln, gr));
    if ln.lid == 0u {
        publish(t, sc.total, select(FLAG_READY, FLAG_INCLUSIVE, geo.first));
    }
    var w = Walk(t - 1u, geo.first, 0u);
    if !w.done {
        w = walk(ln, t, w, &carry);
    }
    if w.done {
        if ln.lid == 0u && !geo.first {
            publish(t, combine(carry, sc.total), FLAG_INCLUSIVE);
        }
        store_tile(ln, gr, geo, sc, carry);
    } else {
        fall_back(ln, gr, t, w.lb, carry);
    }
    if (params.flags & SELF_CLEAN) != 0u {
        clean_up(ln);
    }
}

// The look-back's fallback, from predecessor `lb` that stayed not ready: each turn of the loop
// loads and scans one tile, a predecessor's (its total, then the walk goes on from the tile
// before it) until the walk is done, then the workgroup's own tile `t` again, which it stores.
// The own tile scanned before the walk is not held across this path.
fn fall_back(ln: Lane, gr: Groups, t: u32, lb: u32, carry0: V) {
    var carry = carry0;
    var cur = lb;
    loop {
        let cgeo = tile_geo(cur);
        let sc = local_scan4(ln, gr, load_tile4(cgeo, ln, gr));
        if cur == t {
            if ln.lid == 0u {
                publish(t, combine(carry, sc.total), FLAG_INCLUSIVE);
            }
            store_tile(ln, gr, cgeo, sc, carry);
            break;
        }
        publish_fallback(ln, cur, sc.total);
        carry = combine(sc.total, carry);
        var w = Walk(cur - 1u, cgeo.first, 0u);
        if !w.done {
            w = walk(ln, t, w, &carry);
        }
        cur = select(w.lb, t, w.done);
    }
}

var<workgroup> wg_last: u32;

// SELF_CLEAN: each workgroup counts itself finished once it has read every state it will read;
// the last (one workgroup per tile, claimed from the counter) zeroes the states, the tile
// counter and the count. Every other workgroup has then stopped reading and publishing, and the
// next scan runs after this pass.
fn clean_up(ln: Lane) {
    let count = 1u + 2u * params.n_tiles;
    if ln.lid == 0u {
        wg_last = select(0u, 1u, atomicAdd(&aux[count], 1u) == params.n_tiles - 1u);
    }
    if workgroupUniformLoad(&wg_last) == 0u {
        return;
    }
    for (var j = ln.lid; j <= count; j += WG) {
        atomicStore(&aux[j], 0u);
    }
}

// Short rows (mode 4): invocation `lid` of workgroup `w` scans row w * WG + lid element by
// element. No barriers, no shared memory: rows too short to fill a tile's lanes.
fn serial_entry(ln: Lane, wid_linear: u32) {
    let row = wid_linear * WG + ln.lid;
    if row >= params.rows {
        return;
    }
    let start = row * params.len;
    var run = identity();
    for (var e = start; e < start + params.len; e += 1u) {
        let inc = combine(run, load_elem(e));
        if EXCLUSIVE {
            store_elem(e, run);
        } else {
            store_elem(e, inc);
        }
        run = inc;
    }
}

// A scan's loads in the values it combines (V: see values.wgsl and values_keys.wgsl).
fn load_elem(e: u32) -> V { return in_v(raw_elem(e)); }
fn load_slot(q: u32) -> vec4<V> { return in_v4(raw_slot(q)); }
