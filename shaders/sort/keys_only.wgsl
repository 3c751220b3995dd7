// Radix sort of keys alone: nothing moves with a key.

fn value_of(i: u32) -> u32 {
    return params.index_base + i;
}

fn move_value(i: u32, at: u32) {}
