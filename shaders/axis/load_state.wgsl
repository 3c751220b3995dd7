// A later pass reads the states an earlier pass wrote.
fn load(k0: u32, j: u32) -> S { return src[params.src_base + k0]; }
