// Flat layout: the first pass of argmin/argmax, aminmax, the 2-norm and the operations whose
// state is one value (shaders/axis/flat_lanes.wgsl) over f32 rows of whole vec4 words (added to the
// source of axis/axis.wgsl for that layout only, after the operation's flat file in
// shaders/axis/flat_*.wgsl).
//
// Specialised by a prelude (see src/kernels/axis.rs) and the operation's flat file, which
// define:
//   var src_vec: array<vec4<f32>>        the input as vec4 words (binding 0; below)
//   alias F                              a thread's running value over vec4 words, one per lane
//   fn flat_identity() -> F
//   fn flat_step(a: F, x: vec4<f32>, w: u32) -> F    a word x at word index w along the row
//   fn flat_merge(a: F, b: F) -> F       two running values of one thread, lane by lane
//   fn flat_state(a: F) -> S             a thread's state (its four lanes combined)
//   const STATE_WORDS: u32, fn state_words(s: S) -> StateWords, fn state_of(w: StateWords) -> S
//                                        a state as up to three u32 words (the one-pass
//                                        finish, shaders/axis/flat_finish.wgsl)
// and axis/flat_finish.wgsl or the prelude's stub gives flat_finish (FLAT_LAST_GROUP: one row
// finished in one pass, its last workgroup combining the others' states).
//
// Like the whole-array kernel: `groups` workgroups stride over the input as vec4 words, four
// independent loads in flight per step. Rows (`outer` > 1, rows of a whole number of vec4 words
// that start on one): as in the rows layout, `lanes` threads share a row and reduce chunk
// `workgroup_id.z` (of `splits`, `chunk` elements each, a multiple of 4) of it with the same
// steps, writing state row * splits + chunk. A step works on whole words: order-preserving
// integer keys (a few integer operations per element, where comparing exact floats element by
// element costs several times more: those passes were ALU-bound on the H200), or the 2-norm's
// sums of squares lane by lane. The threads of a row combine
// their states in shared memory; each row's (or workgroup's) state, or where a workgroup has a
// whole row the row's result, is written through store().

fn reduce_flat(lid: u32, wid: vec3<u32>) {
    let g = wid.y * params.groups_x + wid.x;
    if g >= params.groups {
        return;
    }
    let n_vec = params.r / 4u;
    // One row: every workgroup strides over all of it, and the tree below spans the workgroup.
    // Rows: `lanes` threads per row (WG / lanes rows per workgroup) stride over their chunk
    // of the row, and the tree spans each row's lanes.
    let shift = params.lanes_shift;
    let lanes = 1u << shift;
    let lane = lid & (lanes - 1u);
    var stride = params.groups * WG;
    var w = g * WG + lid;
    var end = n_vec;
    var row = 0u;
    var out = g;
    if params.outer > 1u {
        let r_index = (g << (WG_SHIFT - shift)) + (lid >> shift);
        let c = params.chunk / 4u;
        stride = lanes;
        row = r_index * n_vec;
        w = wid.z * c + lane;
        end = select(0u, min(wid.z * c + c, n_vec), r_index < params.outer);
        out = select(NO_OUTPUT, r_index * params.splits + wid.z, r_index < params.outer);
    }
    let total = lanes_combine(lid, lane, lanes, flat_part(lid, g, w, stride, end, row));
    // The one-pass finish (shaders/axis/flat_finish.wgsl; a stub, never called, elsewhere).
    if FLAT_LAST_GROUP {
        flat_finish(lid, g, total);
    } else if lane == 0u && out != NO_OUTPUT {
        store(out, total);
    }
}

// A thread's state over words w, w + stride, ... before `end` (of the row starting at word
// `row`), four loads in flight per step; in one row, workgroup 0 adds the elements after the
// last whole word.
fn flat_part(lid: u32, g: u32, w0: u32, stride: u32, end: u32, row: u32) -> S {
    var w = w0;
    var b0 = flat_identity();
    var b1 = b0;
    var b2 = b0;
    var b3 = b0;
    while w + 3u * stride < end {
        // All four loads are issued before any step: a step that branches (the 2-norm's)
        // would otherwise hold back the loads after it.
        let x0 = src_vec[row + w];
        let x1 = src_vec[row + w + stride];
        let x2 = src_vec[row + w + 2u * stride];
        let x3 = src_vec[row + w + 3u * stride];
        b0 = flat_step(b0, x0, w);
        b1 = flat_step(b1, x1, w + stride);
        b2 = flat_step(b2, x2, w + 2u * stride);
        b3 = flat_step(b3, x3, w + 3u * stride);
        w += 4u * stride;
    }
    while w < end {
        b0 = flat_step(b0, src_vec[row + w], w);
        w += stride;
    }
    var acc = flat_state(flat_merge(flat_merge(b0, b1), flat_merge(b2, b3)));
    // One row's last elements after its whole vec4 words (rows are whole words).
    let t = (params.r / 4u) * 4u + lid;
    if g == 0u && lid < 3u && t < params.r && params.outer == 1u {
        acc = combine(acc, load(t, t));
    }
    return acc;
}

// A state's words (STATE_WORDS of them; the flat files define state_words and state_of).
alias StateWords = array<u32, 3>;

// A thread of a row past the last: no output.
const NO_OUTPUT: u32 = 0xffffffffu;

@group(0) @binding(0) var<storage, read> src_vec: array<vec4<f32>>;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    reduce_flat(lid, wid);
}
