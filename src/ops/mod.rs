//! Operations, one file per family.

mod reduce;
mod scan;

pub use reduce::{Axes, ReduceOp, Reduction, MAX_DIMS};
pub use scan::{
    Scan, ScanAlgorithm, ScanOp, LOOKBACK_MAX_TILES, LOOKBACK_ROW_TILES, SERIAL_MAX_LEN,
};
