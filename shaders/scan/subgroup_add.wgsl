// Inclusive subgroup scan of a sum (scan/group_subgroup.wgsl).
fn subgroup_inclusive4(v: vec4<V>, lane: u32, size: u32) -> vec4<V> {
    return subgroupInclusiveAdd(v);
}
