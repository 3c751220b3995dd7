// A scan pass over rows of one tile each, no carry (called by scan_entry*.wgsl).
fn run_pass(ln: Lane, gr: Groups, t: u32) { scan_entry(ln, gr, t, 0u); }
