//! Operations, one file per family.

mod reduce;

pub use reduce::ReduceOp;
