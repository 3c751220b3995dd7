// A compacted array's places from its count on (up to its capacity, `n` elements; rows of `len`
// elements each, so the count covers count * len of them) set to `value`'s bits,
// so that operations over the whole capacity see the caller's fill there. 16-bit elements: each
// invocation owns a word (two elements) and keeps the half below the count.

@group(0) @binding(0) var<storage, read> count: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let w = tile_of(wid) * 256u + lid;
    let kept = count[0] * params.len;
    if (params.flags & COMPACT_HALF) != 0u {
        let i = 2u * w;
        if i < params.n && i + 1u >= kept {
            var word = dst[w];
            if i >= kept {
                word = (word & 0xffff0000u) | (params.value & 0xffffu);
            }
            if i + 1u < params.n {
                word = (word & 0xffffu) | (params.value << 16u);
            }
            dst[w] = word;
        }
    } else if w < params.n && w >= kept {
        dst[w] = params.value;
    }
}
