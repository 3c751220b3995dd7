// Radix sort of 16-bit keys: the sorted keys, one per u32 word, packed back two to a word (the
// last word of an odd count gets zero in its high half, the array's padding).

@group(0) @binding(1) var<storage, read> wide: array<u32>;
@group(0) @binding(2) var<storage, read_write> packed: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let w = tile_of(wid) * 256u + lid;
    let i = 2u * w;
    if i < params.n {
        var word = wide[i] & 0xffffu;
        if i + 1u < params.n {
            word |= (wide[i + 1u] & 0xffffu) << 16u;
        }
        packed[w] = word;
    }
}
