// Scan of short rows packed several to a tile (SEGMENTED variants): generic over the state S
// (a value and a segment-head flag), one element at a time; the group step is scan_tree.wgsl.

const EPT: u32 = 4u * K;

var<workgroup> wg_groups: array<S, WG>;

// Loads this thread's 4*K elements of a tile (identity past its end), with segment heads.
fn load_tile(geo: TileGeo, ln: Lane, e: ptr<function, array<S, EPT>>) {
    for (var k = 0u; k < K; k += 1u) {
        let o = (ln.g * ln.size * K + k * ln.size + ln.lane) * 4u;
        let e0 = geo.start + o;
        var v = vec4<V>(identity_v());
        if VEC_LOADS && e0 + 4u <= geo.end {
            v = load_slot(e0 >> 2u);
        } else {
            for (var c = 0u; c < 4u; c += 1u) {
                if e0 + c < geo.end {
                    v[c] = load_elem(e0 + c);
                }
            }
        }
        var r = 0u;
        if SEGMENTED {
            r = o % params.seg_len;
        }
        for (var c = 0u; c < 4u; c += 1u) {
            let head = SEGMENTED && r == 0u && e0 + c < geo.end;
            (*e)[k * 4u + c] = lift(v[c], head);
            r += 1u;
            if r == params.seg_len {
                r = 0u;
            }
        }
    }
}

// Scans a loaded tile. Afterwards e[4k + c] is the inclusive scan of slot k's elements up to c,
// pre[k] the exclusive prefix of slot k within the tile; returns the tile's total (the same
// value, computed the same way, in every thread and for every workgroup that scans this tile).
fn local_scan(ln: Lane, e: ptr<function, array<S, EPT>>, pre: ptr<function, array<S, K>>) -> S {
    var tot: array<S, K>;
    for (var k = 0u; k < K; k += 1u) {
        for (var c = 1u; c < 4u; c += 1u) {
            (*e)[k * 4u + c] = combine((*e)[k * 4u + c - 1u], (*e)[k * 4u + c]);
        }
        tot[k] = (*e)[k * 4u + 3u];
    }
    var ex: array<S, K>;
    var ct: array<S, K>;
    group_scan(ln, &tot, &ex, &ct);
    var run = identity();
    for (var k = 0u; k < K; k += 1u) {
        (*pre)[k] = combine(run, ex[k]);
        run = combine(run, ct[k]);
    }
    if ln.lane == 0u {
        wg_groups[ln.g] = run;
    }
    workgroupBarrier();
    var before = identity();
    var all = identity();
    for (var i = 0u; i < ln.n_groups; i += 1u) {
        let x = wg_groups[i];
        if i < ln.g {
            before = combine(before, x);
        }
        all = combine(all, x);
    }
    workgroupBarrier();
    for (var k = 0u; k < K; k += 1u) {
        (*pre)[k] = combine(before, (*pre)[k]);
    }
    return all;
}

// Tile reduction for reduce-then-scan: dst[t] = total of tile t.
fn reduce_entry(ln: Lane, t: u32) {
    if t >= params.n_tiles {
        return;
    }
    var e: array<S, EPT>;
    var pre: array<S, K>;
    load_tile(tile_geo(t), ln, &e);
    let total = local_scan(ln, &e, &pre);
    if ln.lid == 0u {
        store_elem(t, value(total));
    }
}

// MODE: 0 = one tile per row unit (no carry), 2 = carry from scanned tile totals in aux,
// 3 = decoupled look-back with fallback (tile ids from a counter in aux[0]).
fn scan_entry(ln: Lane, wid_linear: u32, mode: u32) {
    var t = wid_linear;
    if mode == 3u {
        if ln.lid == 0u {
            wg_tile = atomicAdd(&aux[0], 1u);
        }
        t = workgroupUniformLoad(&wg_tile);
    }
    if t >= params.n_tiles {
        return;
    }
    let geo = tile_geo(t);
    var e: array<S, EPT>;
    var pre: array<S, K>;
    load_tile(geo, ln, &e);
    let total = local_scan(ln, &e, &pre);
    var carry = identity_v();
    if mode == 2u {
        carry = bitcast<V>(atomicLoad(&aux[t]));
    } else if mode == 3u {
        carry = lookback(t, geo, value(total), ln);
    }
    let cs = lift(carry, false);
    for (var k = 0u; k < K; k += 1u) {
        let o = (ln.g * ln.size * K + k * ln.size + ln.lane) * 4u;
        let e0 = geo.start + o;
        if e0 >= geo.end {
            continue;
        }
        let p = combine(cs, pre[k]);
        var r = 0u;
        if SEGMENTED {
            r = o % params.seg_len;
        }
        var out: vec4<V>;
        for (var c = 0u; c < 4u; c += 1u) {
            if EXCLUSIVE {
                var before = p;
                if c > 0u {
                    before = combine(p, e[k * 4u + c - 1u]);
                }
                // A segment head starts its row: nothing before it.
                out[c] = select(value(before), identity_v(), SEGMENTED && r == 0u);
            } else {
                out[c] = value(combine(p, e[k * 4u + c]));
            }
            r += 1u;
            if r == params.seg_len {
                r = 0u;
            }
        }
        if VEC_STORES && e0 + 4u <= geo.end {
            store_slot(e0 >> 2u, out);
        } else {
            for (var c = 0u; c < 4u; c += 1u) {
                if e0 + c < geo.end {
                    store_elem(e0 + c, out[c]);
                }
            }
        }
    }
}

// The tile's total, computed exactly as its owner computes it (for the look-back's fallback).
fn tile_total(ln: Lane, geo: TileGeo) -> V {
    var e: array<S, EPT>;
    var pre: array<S, K>;
    load_tile(geo, ln, &e);
    return value(local_scan(ln, &e, &pre));
}
