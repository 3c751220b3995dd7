// Radix sort of key-value pairs: the value of key `i` moves with it (or, in an argsort's first
// pass, the value is `i` itself).

@group(0) @binding(0) var<storage, read> values_in: array<u32>;
@group(0) @binding(4) var<storage, read_write> values_out: array<u32>;

const MOVES_VALUES: bool = true;

fn value_of(i: u32) -> u32 {
    if (params.flags & SORT_IOTA) != 0u {
        return iota(i);
    }
    return values_in[i];
}

fn store_value(at: u32, v: u32) {
    values_out[at] = v;
}
