// A first pass reads input elements (elem_at, from axis/elem_*.wgsl) and makes states of them
// (from_elem, from the operation's file). Indices are relative to the dispatch's window.
fn load(k0: u32, j0: u32) -> S {
    let k = params.src_base + k0;
    let j = params.j_base + j0;
    return from_elem(elem_at(k), j);
}
