// The row pairs layout's reads (axis/rows_loop.wgsl; rows of raw 16-bit input of even length, even
// window base, an even chunk when a row is split): elements j and j + 1 of a row, the halves of
// the word at even element k, by one load, where the rows layout reads each word twice (each
// half separately).
const ROW_GRAIN: u32 = 2u;

fn row_load(k0: u32, j0: u32) -> S {
    let k = params.src_base + k0;
    let j = params.j_base + j0;
    let w = src[k >> 1u];
    return combine(from_elem(half_at(w, 0u), j), from_elem(half_at(w, 1u), j + 1u));
}
