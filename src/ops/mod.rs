//! Operations, one file per family.

mod reduce;

pub use reduce::{Axes, ReduceOp, Reduction, MAX_DIMS};
