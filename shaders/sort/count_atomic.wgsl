// The count with a workgroup atomic per key.

fn add_digit(d: u32, here: bool, lane: u32) {
    if here {
        atomicAdd(&hist[d], 1u);
    }
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    count_tile(lid, wid, 0u);
}
