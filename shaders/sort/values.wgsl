// Radix sort of key-value pairs: the value of key `i` moves with it (or, in an argsort's first
// pass, the value is `i` itself).

@group(0) @binding(0) var<storage, read> values_in: array<u32>;
@group(0) @binding(4) var<storage, read_write> values_out: array<u32>;

fn move_value(i: u32, at: u32) {
    if (params.flags & SORT_IOTA) != 0u {
        values_out[at] = i;
    } else {
        values_out[at] = values_in[i];
    }
}
