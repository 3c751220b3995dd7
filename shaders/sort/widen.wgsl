// Radix sort of 16-bit keys: each key, two to a u32 word in the input, widened to a word of its
// own (its bits in the low 16), so the passes move whole words.

@group(0) @binding(1) var<storage, read> packed: array<u32>;
@group(0) @binding(2) var<storage, read_write> wide: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let i = tile_of(wid) * 256u + lid;
    if i < params.n {
        wide[i] = (packed[i / 2u] >> (16u * (i % 2u))) & 0xffffu;
    }
}
