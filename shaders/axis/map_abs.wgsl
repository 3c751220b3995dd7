// The 1-, inf- and -inf-norms: absolute values (a NaN stays NaN).
fn from_elem(x: E, j: u32) -> S { return abs(x); }
