// The entry of a scan pass with the shared-memory group step; the prelude sets `const MODE: u32`
// (0 tile, 1 reduce, 2 downsweep, 3 look-back, 4 serial).
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let ln = Lane(lid, 0u, lid);
    let gr = Groups(WG, 1u);
    let t = wid.y * params.groups_x + wid.x;
    run_pass(ln, gr, t);
}
