// Reduce-then-scan, last pass: each tile scanned from its scanned total (called by
// scan_entry*.wgsl).
fn run_pass(ln: Lane, gr: Groups, t: u32) { scan_entry(ln, gr, t, 2u); }
