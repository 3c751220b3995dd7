// The flat first pass over one row finished in one pass (variants with FLAT_LAST_GROUP; added
// to axis/flat.wgsl's source for them only, so the other flat passes hold none of this).

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
