// nansum: a NaN element adds nothing.
fn from_elem(x: E, j: u32) -> S { return select(x, 0.0, is_nan(x)); }
