// Radix sort of keys alone: nothing moves with a key.

fn move_value(i: u32, at: u32) {}
