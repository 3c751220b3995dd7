// Radix sort of keys alone: nothing moves with a key.

const MOVES_VALUES: bool = false;

fn value_of(i: u32) -> u32 {
    return params.index_base + i;
}

fn store_value(at: u32, v: u32) {}
