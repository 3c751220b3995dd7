//! What the benchmark harnesses (`src/bin/`: `speed`, `scan`, `first_call`) share: the measuring
//! code, the command-line helpers and the f64 reference of the tests.

pub mod args;
pub mod bench;
#[path = "../../tests/common/reference.rs"]
#[allow(dead_code, clippy::len_without_is_empty)]
pub mod reference;
#[path = "../../tests/common/scan_ref.rs"]
#[allow(dead_code)]
pub mod scan_ref;
pub mod support;
