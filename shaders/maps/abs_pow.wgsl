// The p-norm: |x|^p for the p of the parameters (0 stays 0: pow is exp2(p * log2(x))).
fn from_elem(x: E, j: u32) -> S {
    let a = abs(x);
    return select(pow(a, params.power), 0.0, a == 0.0);
}
