// The subgroup form of max_float.wgsl: a subgroup maximum may drop NaNs, hence the subgroupAny.
fn subgroup_combine(a: A) -> A {
    return select(from_fkey(subgroupMax(fkey(a))), quiet_nan(), subgroupAny(is_nan(a)));
}
