// The subgroup form of mul.wgsl.
fn subgroup_combine(a: A) -> A { return subgroupMul(a); }
