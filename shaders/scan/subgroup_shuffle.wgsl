// Inclusive subgroup scan of min/max by shuffles (scan/group_subgroup.wgsl); `size` is the
// subgroup's size, whatever the device picked.
fn subgroup_inclusive4(v: vec4<V>, lane: u32, size: u32) -> vec4<V> {
    var x = v;
    for (var d = 1u; d < size; d <<= 1u) {
        let o = subgroupShuffleUp(x, d);
        if lane >= d {
            x = combine4(o, x);
        }
    }
    return x;
}
