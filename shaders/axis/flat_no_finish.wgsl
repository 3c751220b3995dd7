// The flat passes that write their states (or rows' results) themselves: flat_finish is never
// called (FLAT_LAST_GROUP is false), so these variants hold none of shaders/axis/flat_finish.wgsl.

fn flat_finish(lid: u32, g: u32, total: S) {}
