// A thread's part of a row in the row pairs layout (axis/entry_rows.wgsl, as
// pairs_values.wgsl) for min, max, argmin and argmax (the prelude sets KEYS_MAX and KEYS_ARG):
// the elements are compared as 16-bit keys (shared/keys16.wgsl), both halves of a word at once in
// integer arithmetic, and only the winner is widened (the value path widens every element and
// compares it with NaN checks and f32 keys). Scanned in order with a strict comparison, so among
// equal keys the lowest index wins.
const ROW_GRAIN: u32 = 2u;

fn key_beats(a: u32, b: u32) -> bool {
    return select((a < b), (a > b), KEYS_MAX);
}

// The value of a key, widened (a NaN key gives a NaN).
fn key_value(k: u32) -> E {
    return half_at(key_half_bits(k), 0u);
}

struct Best {
    key: u32,
    // The winner's row index; 0xffffffff while no element was taken.
    at: u32,
}

// Takes the two elements of word w, row indices j and j + 1, in order.
fn take(b: Best, w: u32, j: u32) -> Best {
    let k = keys2(w);
    let lo = k & 0xffffu;
    let hi = k >> 16u;
    if KEYS_ARG {
        var r = b;
        if key_beats(lo, r.key) {
            r = Best(lo, j);
        }
        if key_beats(hi, r.key) {
            r = Best(hi, j + 1u);
        }
        return r;
    }
    return Best(select(max(b.key, max(lo, hi)), min(b.key, min(lo, hi)), !KEYS_MAX), j);
}

fn word_at(k: u32) -> u32 {
    return src[(params.src_base + k) >> 1u];
}

fn row_part(base: u32, first: u32, end: u32, step: u32) -> S {
    // One step past the weakest key, so that any element (even -inf for argmax) is taken.
    var b = Best(select(key_start() + 1u, key_start() - 1u, KEYS_MAX), 0xffffffffu);
    var j = first;
    // Four words in flight, taken in order of their indices.
    while j + 3u * step < end {
        let w0 = word_at(base + j);
        let w1 = word_at(base + j + step);
        let w2 = word_at(base + j + 2u * step);
        let w3 = word_at(base + j + 3u * step);
        b = take(b, w0, j);
        b = take(b, w1, j + step);
        b = take(b, w2, j + 2u * step);
        b = take(b, w3, j + 3u * step);
        j += 4u * step;
    }
    while j < end {
        b = take(b, word_at(base + j), j);
        j += step;
    }
    if b.at == 0xffffffffu {
        return identity();
    }
    return from_elem(key_value(b.key), params.j_base + b.at);
}
