// The subgroup form of min_float.wgsl: a subgroup minimum may drop NaNs, hence the subgroupAny.
fn subgroup_combine(a: A) -> A {
    return select(from_fkey(subgroupMin(fkey(a))), quiet_nan(), subgroupAny(is_nan(a)));
}
