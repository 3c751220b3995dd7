// A scan's loads in the values it combines (V: see scan_values.wgsl and scan_keys.wgsl).
fn load_elem(e: u32) -> V { return in_v(raw_elem(e)); }
fn load_slot(q: u32) -> vec4<V> { return in_v4(raw_slot(q)); }
