// any, all, count_nonzero and the 0-norm: 1 for a non-zero element, else 0. Floats are tested
// on their bits (the prelude sets `const E_FLOAT: bool`): -0.0 is zero, NaN and subnormals are
// not, whatever the compiler does with float comparisons.
fn from_elem(x: E, j: u32) -> S {
    let b = bitcast<u32>(x);
    let magnitude = select(b, b & 0x7fffffffu, E_FLOAT);
    return select(S(0), S(1), magnitude != 0u);
}
