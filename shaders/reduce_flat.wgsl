// Flat layout: the first pass of argmin/argmax, aminmax, the 2-norm and the operations whose
// state is one value (shaders/flat/lanes.wgsl) over f32 rows of whole vec4 words (added to the
// source of reduce_axis.wgsl for that layout only, after the operation's flat file in
// shaders/flat/).
//
// Specialised by a prelude (see src/kernels/axis.rs) and the operation's flat file, which
// define:
//   var src_vec: array<vec4<f32>>        the input as vec4 words (binding 0; below)
//   alias F                              a thread's running value over vec4 words, one per lane
//   fn flat_identity() -> F
//   fn flat_step(a: F, x: vec4<f32>, w: u32) -> F    a word x at word index w along the row
//   fn flat_merge(a: F, b: F) -> F       two running values of one thread, lane by lane
//   fn flat_state(a: F) -> S             a thread's state (its four lanes combined)
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

// FLAT_LAST_GROUP (one row, `groups` workgroups): the count of finished workgroups (word 0), then
// 2 * STATE_WORDS words per workgroup, 16 bits of one of its state's words each with the
// FLAT_PUBLISHED flag, so that no 64-bit atomics are needed and a reader never takes half of a
// word; zero before the pass (the context's clean states), and zeroed again by the last
// workgroup.
@group(0) @binding(4) var<storage, read_write> aux: array<atomic<u32>>;

const FLAT_PUBLISHED: u32 = 0x80000000u;
// Reads of a published state not visible yet before the last workgroup computes it again.
const FLAT_SPIN_LIMIT: u32 = 64u;

var<workgroup> flat_flag: u32;
var<workgroup> flat_missing: atomic<u32>;
var<workgroup> flat_value: S;

fn flat_publish(g: u32, s: S) {
    let words = state_words(s);
    let base = 1u + 2u * STATE_WORDS * g;
    for (var k = 0u; k < STATE_WORDS; k += 1u) {
        atomicStore(&aux[base + 2u * k], FLAT_PUBLISHED | (words[k] & 0xffffu));
        atomicStore(&aux[base + 2u * k + 1u], FLAT_PUBLISHED | (words[k] >> 16u));
    }
}

struct FlatPeek {
    ready: bool,
    s: S,
}

// Workgroup g's published state, read up to FLAT_SPIN_LIMIT + 1 times while it is not visible.
fn flat_peek(g: u32) -> FlatPeek {
    let hidden = (params.flags & HIDE_PARTIALS) != 0u;
    let base = 1u + 2u * STATE_WORDS * g;
    for (var t = 0u; t <= FLAT_SPIN_LIMIT; t += 1u) {
        var words = StateWords();
        var ready = !hidden;
        for (var k = 0u; k < STATE_WORDS; k += 1u) {
            let lo = atomicLoad(&aux[base + 2u * k]);
            let hi = atomicLoad(&aux[base + 2u * k + 1u]);
            ready = ready && (lo & hi & FLAT_PUBLISHED) != 0u;
            words[k] = (lo & 0xffffu) | ((hi & 0xffffu) << 16u);
        }
        if ready {
            return FlatPeek(true, state_of(words));
        }
    }
    return FlatPeek(false, identity());
}

// Publishes workgroup g's state `total` (valid in invocation 0) and counts the workgroup done;
// the last to count combines every workgroup's state (invocation j takes j, j + WG, ... in
// order, then the tree), writes the result and zeroes the states. Nothing waits on another
// workgroup's progress: every other workgroup counted itself after publishing, and a state
// still not visible after FLAT_SPIN_LIMIT reads is computed again from the input, all of them
// in the same order, so the result is the same either way.
fn flat_finish(lid: u32, g: u32, total: S) {
    if lid == 0u {
        flat_publish(g, total);
        flat_flag = select(0u, 1u, atomicAdd(&aux[0], 1u) == params.groups - 1u);
    }
    if workgroupUniformLoad(&flat_flag) == 0u {
        return;
    }
    var acc = identity();
    for (var j = lid; j < params.groups; j += WG) {
        let p = flat_peek(j);
        if !p.ready {
            atomicStore(&flat_missing, 1u);
        }
        acc = combine(acc, p.s);
    }
    workgroupBarrier();
    if lid == 0u {
        flat_flag = atomicLoad(&flat_missing);
    }
    if workgroupUniformLoad(&flat_flag) != 0u {
        acc = identity();
        let stride = params.groups * WG;
        for (var k = 0u; k < params.groups; k += 1u) {
            let part = flat_part(lid, k, k * WG + lid, stride, params.r / 4u, 0u);
            let r = lanes_combine(lid, lid, WG, part);
            if lid == 0u {
                flat_value = r;
            }
            let v = workgroupUniformLoad(&flat_value);
            if lid == k % WG {
                acc = combine(acc, v);
            }
        }
    }
    let r = lanes_combine(lid, lid, WG, acc);
    if lid == 0u {
        store(0u, r);
    }
    for (var j = lid; j <= 2u * STATE_WORDS * params.groups; j += WG) {
        atomicStore(&aux[j], 0u);
    }
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
