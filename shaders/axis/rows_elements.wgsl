// The rows layout's reads (axis/rows_loop.wgsl): one element (or one state of an earlier pass:
// `load`) at each row index.
const ROW_GRAIN: u32 = 1u;

fn row_load(k: u32, j: u32) -> S {
    return load(k, j);
}
