// The single-pass decoupled look-back with fallback (called by scan_entry*.wgsl).
fn run_pass(ln: Lane, gr: Groups, t: u32) { lookback_entry(ln, gr); }
