// The subgroup form of min.wgsl.
fn subgroup_combine(a: A) -> A { return subgroupMin(a); }
