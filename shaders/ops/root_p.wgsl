// The p-norm's finish: the p-th root of the sum of |x|^p, in a final pass.
fn finalize(a: A) -> A {
    if (params.flags & FINAL) != 0u && a != 0.0 {
        return pow(a, 1.0 / params.power);
    }
    return a;
}
