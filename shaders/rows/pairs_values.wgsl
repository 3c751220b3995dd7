// A thread's part of a row in the row pairs layout (reduce_row_pairs.wgsl): the states of the
// elements j, j + 1 of the words at j = first, first + step, ... below `end` (row element
// indices; the row starts at element `base`), four words in flight.

// Elements j and j + 1 of a row, the halves of the word at even element k.
fn load_pair(k0: u32, j0: u32) -> S {
    let k = params.src_base + k0;
    let j = params.j_base + j0;
    let w = src[k >> 1u];
    return combine(from_elem(half_at(w, 0u), j), from_elem(half_at(w, 1u), j + 1u));
}

fn row_part(base: u32, first: u32, end: u32, step: u32) -> S {
    var acc0 = identity();
    var acc1 = acc0;
    var acc2 = acc0;
    var acc3 = acc0;
    var j = first;
    while j + 3u * step < end {
        acc0 = combine(acc0, load_pair(base + j, j));
        acc1 = combine(acc1, load_pair(base + j + step, j + step));
        acc2 = combine(acc2, load_pair(base + j + 2u * step, j + 2u * step));
        acc3 = combine(acc3, load_pair(base + j + 3u * step, j + 3u * step));
        j += 4u * step;
    }
    while j < end {
        acc0 = combine(acc0, load_pair(base + j, j));
        j += step;
    }
    return combine(combine(acc0, acc1), combine(acc2, acc3));
}
