// Short rows, one invocation per row (called by scan_entry*.wgsl).
fn run_pass(ln: Lane, gr: Groups, t: u32) { serial_entry(ln, t); }
