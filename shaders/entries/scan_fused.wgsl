// Reduce-then-scan of few tiles, last pass: each tile scanned from the unscanned totals of the
// tiles before it in its row, combined by the workgroup itself (called by scan_entry*.wgsl).
fn run_pass(ln: Lane, gr: Groups, t: u32) { scan_entry(ln, gr, t, 5u); }
