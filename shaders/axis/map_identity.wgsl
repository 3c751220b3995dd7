// An element's state is its value.
fn from_elem(x: E, j: u32) -> S { return x; }
