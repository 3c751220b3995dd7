// Mean's finish: the sum, divided by the element count of the whole reduction in a final pass.
fn finalize(a: A) -> A {
    if (params.flags & FINAL) != 0u {
        return a / params.divisor;
    }
    return a;
}
