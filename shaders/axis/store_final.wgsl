// A final pass writes finished results.
fn store(o: u32, s: S) { dst[params.dst_base + o] = finalize(s); }
