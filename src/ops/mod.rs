//! The vocabulary of the library: what a reduction or a scan is, as plain data. Nothing here
//! touches a device; the [`Recorder`](crate::Recorder) and [`Context`](crate::Context) methods
//! take these values.

pub mod compare;
pub mod map;
mod prepare;
pub mod reduce;
pub mod scan;
pub mod sort;

pub use compare::Cmp;
pub use map::Map;
pub use prepare::Prepare;
pub use reduce::{Axes, ReduceOp, Reduction, MAX_DIMS};
#[doc(hidden)]
pub use scan::ScanTesting;
pub use scan::{Scan, ScanAlgorithm, ScanOp};
pub use sort::{Sort, TopK};
