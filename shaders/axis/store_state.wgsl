// A pass that is not the last writes states, or combines them into the states already there
// (pieces of one long reduced axis).
fn store(o: u32, s: S) {
    let at = params.dst_base + o;
    if (params.flags & ACCUMULATE) != 0u {
        dst[at] = combine(dst[at], s);
    } else {
        dst[at] = s;
    }
}
