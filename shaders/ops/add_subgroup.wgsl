// The subgroup form of add.wgsl.
fn subgroup_combine(a: A) -> A { return subgroupAdd(a); }
