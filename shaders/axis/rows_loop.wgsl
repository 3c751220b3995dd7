// A thread's part of a row in the rows and row pairs layouts (axis/entry_rows.wgsl), through
// the layout's row_load (axis/rows_elements.wgsl or axis/rows_pairs_values.wgsl): the states read at row
// indices j = first, first + step, ... below `end` (the row starts at element `base`), four
// reads in flight.
fn row_part(base: u32, first: u32, end: u32, step: u32) -> S {
    var acc0 = identity();
    var acc1 = acc0;
    var acc2 = acc0;
    var acc3 = acc0;
    var j = first;
    while j + 3u * step < end {
        acc0 = combine(acc0, row_load(base + j, j));
        acc1 = combine(acc1, row_load(base + j + step, j + step));
        acc2 = combine(acc2, row_load(base + j + 2u * step, j + 2u * step));
        acc3 = combine(acc3, row_load(base + j + 3u * step, j + 3u * step));
        j += 4u * step;
    }
    while j < end {
        acc0 = combine(acc0, row_load(base + j, j));
        j += step;
    }
    return combine(combine(acc0, acc1), combine(acc2, acc3));
}
