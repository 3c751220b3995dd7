// The subgroup form of max.wgsl.
fn subgroup_combine(a: A) -> A { return subgroupMax(a); }
