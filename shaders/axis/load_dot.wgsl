// The first pass of a dot product: the product of the two inputs' elements k (elem_at and
// elem_b_at, from axis/elem_*.wgsl; integers wrap). Indices are relative to the dispatch's window,
// which is the same for both inputs.
fn load(k0: u32, j0: u32) -> S {
    let k = params.src_base + k0;
    return from_elem(elem_at(k) * elem_b_at(k), params.j_base + j0);
}
