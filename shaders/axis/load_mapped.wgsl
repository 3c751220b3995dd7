// A first pass through a map: the map's `fn map(x: f32) -> f32` (crate::Map, added after the
// kernel's files) applied to each f32 element value before it becomes a state.
fn load(k0: u32, j0: u32) -> S {
    let k = params.src_base + k0;
    return from_elem(map(elem_at(k)), params.j_base + j0);
}
