// Compaction: the number kept, the last of the inclusive scan of the tiles' counts.

@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        count[0] = offsets[params.tiles - 1u];
    }
}
