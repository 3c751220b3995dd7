// The entry of a scan pass with the shared-memory group step; `run_pass` comes from the pass's
// file in shaders/entries/.
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let ln = Lane(lid, 0u, lid);
    let gr = Groups(WG, 1u);
    let t = wid.y * params.groups_x + wid.x;
    run_pass(ln, gr, t);
}
