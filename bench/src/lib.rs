//! What the benchmark harnesses (`src/bin/`: `speed`, `scan`, `first_call`) share with the examples: the
//! measuring code, the command-line helpers and the f64 reference of the tests.

#[path = "../../examples/support/args.rs"]
pub mod args;
#[path = "../../examples/support/bench.rs"]
pub mod bench;
#[path = "../../tests/common/reference.rs"]
#[allow(dead_code, clippy::len_without_is_empty)]
pub mod reference;
#[path = "../../tests/common/scan_ref.rs"]
#[allow(dead_code)]
pub mod scan_ref;
#[path = "../../examples/support/mod.rs"]
pub mod support;
