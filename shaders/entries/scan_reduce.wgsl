// Reduce-then-scan, first pass: each tile's total (called by scan_entry*.wgsl).
fn run_pass(ln: Lane, gr: Groups, t: u32) { reduce_entry(ln, gr, t); }
