// General reduction of an input viewed as [outer, r, inner] over r, writing [outer, splits, inner]
// values (states for a later pass, or final results when splits == 1).
//
// Composed with an operation's file (shaders/ops/), the value type's (shaders/shared/type_*.wgsl), a load
// and a store file and an entry, after a prelude (src/kernels/axis.rs) that defines:
//   const WG: u32, WG_SHIFT: u32     workgroup size (a power of two) and its log2
//   alias S, alias SRC, alias DST    state type, input element type, output element type
//   fn identity() -> S, fn combine(a: S, b: S) -> S
//   fn load(k: u32, j: u32) -> S     state of input element k, at index j along the reduced axis
//   fn store(o: u32, s: S)           writes output o (applying finalize in a final pass)
//
// The reduced range is cut into `splits` chunks of `chunk` elements; each workgroup handles one
// chunk (workgroup_id.z) of a tile of outputs. Tiles are numbered linearly over the x-y grid
// (`groups_x` wide) so more than 65535 of them can run. Divisions by run-time values are kept out
// of the per-thread work (lanes is a power of two, passed as its log2), since they cost tens of
// instructions on a GPU and short rows do little else.

// AxisParams::flags bits (src/kernels/params.rs).
const FINAL: u32 = 1u;
const ACCUMULATE: u32 = 2u;
const HIDE_PARTIALS: u32 = 4u;
const SEGMENT_LONG: u32 = 8u;

struct AxisParams {
    outer: u32,
    r: u32,
    inner: u32,
    splits: u32,
    chunk: u32,
    // Column tiles per outer index (columns layout).
    tiles: u32,
    // log2 of the threads per row (rows layout) or columns per workgroup (columns layout).
    lanes_shift: u32,
    // Tiles (workgroups per split) in this dispatch, and the width of the dispatch grid.
    groups: u32,
    groups_x: u32,
    // Bit 0: final results; bit 1: combine each output with the state already in dst.
    flags: u32,
    // Mean's divisor (elements reduced in all), var/std's correction.
    divisor: f32,
    correction: f32,
    // Where this dispatch's window of a larger array starts: elements of src and dst before
    // index 0 of the view the code below works in, and the reduced-axis index of its row 0
    // (argmin/argmax report indices of the whole axis). Zero unless a reduction is cut into
    // pieces that each fit a storage binding.
    src_base: u32,
    dst_base: u32,
    j_base: u32,
    // The p-norm's p.
    power: f32,
}

@group(0) @binding(1) var<storage, read> src: array<SRC>;
@group(0) @binding(2) var<storage, read_write> dst: array<DST>;
@group(0) @binding(3) var<uniform> params: AxisParams;

var<workgroup> scratch: array<S, WG>;

// Combines the values of each group of `lanes` threads (the rows, row pairs, flat and segments
// layouts: `lane` is lid's place in its group) through shared memory; the group's combination
// is returned in its lane 0. `lanes` is uniform (from params), so the barriers are in uniform
// control flow.
fn lanes_combine(lid: u32, lane: u32, lanes: u32, v: S) -> S {
    scratch[lid] = v;
    workgroupBarrier();
    for (var s = lanes / 2u; s > 0u; s = s >> 1u) {
        if lane < s {
            scratch[lid] = combine(scratch[lid], scratch[lid + s]);
        }
        workgroupBarrier();
    }
    return scratch[lid];
}

// A column tile's shape: `cols` threads across, `slices` down (shared by the columns and
// column-pairs layouts). Uniform across the workgroup, and kept apart from the per-thread
// ColTile: WGSL's uniformity analysis takes a struct as one value, so a field read from a struct
// that also holds per-thread values counts as non-uniform, and the trees below have barriers in
// loops bounded by `slices`.
struct ColShape {
    cols: u32,
    slices: u32,
}

fn col_shape() -> ColShape {
    return ColShape(1u << params.lanes_shift, WG >> params.lanes_shift);
}

// Where thread `lid` of column tile `g` works: column tx and slice ty of the tile, outer index
// `o` and tile `tile` within it.
struct ColTile {
    tx: u32,
    ty: u32,
    o: u32,
    tile: u32,
}

fn col_tile(lid: u32, g: u32) -> ColTile {
    let shift = params.lanes_shift;
    var o = 0u;
    var tile = g;
    if params.outer > 1u {
        o = g / params.tiles;
        tile = g - o * params.tiles;
    }
    return ColTile(lid & ((1u << shift) - 1u), lid >> shift, o, tile);
}

// Columns layout: `lanes` adjacent columns per workgroup, WG / lanes slices of r.
fn reduce_cols(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g >= params.groups {
        return;
    }
    let t = col_tile(lid, g);
    let shape = col_shape();
    let cols = shape.cols;
    let slices = shape.slices;
    let ty = t.ty;
    let o = t.o;
    let split = wid.z;
    let i = (t.tile << params.lanes_shift) + t.tx;
    let inner = params.inner;
    var acc0 = identity();
    if i < inner {
        var acc1 = acc0;
        var acc2 = acc0;
        var acc3 = acc0;
        let start = split * params.chunk;
        let end = min(start + params.chunk, params.r);
        let step = slices * inner;
        var j = start + ty;
        var k = (o * params.r + j) * inner + i;
        while j + 3u * slices < end {
            acc0 = combine(acc0, load(k, j));
            acc1 = combine(acc1, load(k + step, j + slices));
            acc2 = combine(acc2, load(k + 2u * step, j + 2u * slices));
            acc3 = combine(acc3, load(k + 3u * step, j + 3u * slices));
            j += 4u * slices;
            k += 4u * step;
        }
        while j < end {
            acc0 = combine(acc0, load(k, j));
            j += slices;
            k += step;
        }
        acc0 = combine(combine(acc0, acc1), combine(acc2, acc3));
    }
    scratch[lid] = acc0;
    workgroupBarrier();
    for (var s = slices / 2u; s > 0u; s = s >> 1u) {
        if ty < s {
            scratch[lid] = combine(scratch[lid], scratch[lid + s * cols]);
        }
        workgroupBarrier();
    }
    if ty == 0u && i < inner {
        store((o * params.splits + split) * inner + i, scratch[lid]);
    }
}

// Wide variants, where each thread owns whole outputs (one thread per row, or a workgroup
// exactly as wide as its columns): each thread takes four outputs WG apart, so four independent
// loads are in flight per step and a quarter of the workgroups are needed. No shared memory.
fn reduce_rows_wide(lid: u32, g: u32) {
    let r = params.r;
    let row0 = g * 4u * WG + lid;
    let row1 = row0 + WG;
    let row2 = row0 + 2u * WG;
    let row3 = row0 + 3u * WG;
    let outer = params.outer;
    var a0 = identity();
    var a1 = a0;
    var a2 = a0;
    var a3 = a0;
    for (var j = 0u; j < r; j++) {
        if row0 < outer {
            a0 = combine(a0, load(row0 * r + j, j));
        }
        if row1 < outer {
            a1 = combine(a1, load(row1 * r + j, j));
        }
        if row2 < outer {
            a2 = combine(a2, load(row2 * r + j, j));
        }
        if row3 < outer {
            a3 = combine(a3, load(row3 * r + j, j));
        }
    }
    if row0 < outer {
        store(row0, a0);
    }
    if row1 < outer {
        store(row1, a1);
    }
    if row2 < outer {
        store(row2, a2);
    }
    if row3 < outer {
        store(row3, a3);
    }
}

fn reduce_cols_wide(lid: u32, g: u32, split: u32) {
    var o = 0u;
    var tile = g;
    if params.outer > 1u {
        o = g / params.tiles;
        tile = g - o * params.tiles;
    }
    let inner = params.inner;
    let i0 = tile * 4u * WG + lid;
    let i1 = i0 + WG;
    let i2 = i0 + 2u * WG;
    let i3 = i0 + 3u * WG;
    let start = split * params.chunk;
    let end = min(start + params.chunk, params.r);
    var a0 = identity();
    var a1 = a0;
    var a2 = a0;
    var a3 = a0;
    for (var j = start; j < end; j++) {
        let k = (o * params.r + j) * inner;
        if i0 < inner {
            a0 = combine(a0, load(k + i0, j));
        }
        if i1 < inner {
            a1 = combine(a1, load(k + i1, j));
        }
        if i2 < inner {
            a2 = combine(a2, load(k + i2, j));
        }
        if i3 < inner {
            a3 = combine(a3, load(k + i3, j));
        }
    }
    let out = (o * params.splits + split) * inner;
    if i0 < inner {
        store(out + i0, a0);
    }
    if i1 < inner {
        store(out + i1, a1);
    }
    if i2 < inner {
        store(out + i2, a2);
    }
    if i3 < inner {
        store(out + i3, a3);
    }
}

fn rows_wide_entry(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g < params.groups {
        reduce_rows_wide(lid, g);
    }
}

fn cols_wide_entry(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g < params.groups {
        reduce_cols_wide(lid, g, wid.z);
    }
}
