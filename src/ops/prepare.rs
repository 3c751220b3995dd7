//! What [`Context::prepare`](crate::Context::prepare) compiles ahead of the first call.

use crate::element::DType;
use crate::ops::{ReduceOp, ScanOp};

/// A family of operations whose kernels [`Context::prepare`](crate::Context::prepare) compiles
/// before their first call, so that the first call runs at the speed of later ones.
///
/// ```
/// use wgpu_reduce::{DType, Prepare, ReduceOp, ScanOp};
/// let wanted = [
///     Prepare::reduce(ReduceOp::Sum, DType::F32),
///     Prepare::scan(ScanOp::Add, DType::F32),
/// ];
/// assert_eq!(wanted[0].name(), "sum f32");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Prepare {
    /// Reductions by `op` of `dtype` input, of whole arrays and along any axes (every layout
    /// of the general kernel, the passes over partial states, the 16-bit conversion of the
    /// result). Segmented reductions and reductions with a user's [`Map`](crate::Map) are
    /// compiled at their first call.
    Reduce {
        /// The operation.
        op: ReduceOp,
        /// The input's element type.
        dtype: DType,
    },
    /// Scans by `op` of `dtype` input, inclusive or `exclusive`, by either algorithm: every
    /// pass at the context's workgroup size, and the one-pass tile scan of rows that fit one
    /// larger tile. (Rows that take a smaller workgroup, because they are too long to pack
    /// several to a tile, compile those passes at their first call.)
    Scan {
        /// The operation.
        op: ScanOp,
        /// The input's element type.
        dtype: DType,
        /// Exclusive scans.
        exclusive: bool,
    },
}

impl Prepare {
    /// Reductions by `op` of `dtype` input (see [`Prepare::Reduce`]).
    pub const fn reduce(op: ReduceOp, dtype: DType) -> Prepare {
        Prepare::Reduce { op, dtype }
    }

    /// Inclusive scans by `op` of `dtype` input (see [`Prepare::Scan`]).
    pub const fn scan(op: ScanOp, dtype: DType) -> Prepare {
        Prepare::Scan {
            op,
            dtype,
            exclusive: false,
        }
    }

    /// Exclusive scans by `op` of `dtype` input.
    pub const fn exclusive_scan(op: ScanOp, dtype: DType) -> Prepare {
        Prepare::Scan {
            op,
            dtype,
            exclusive: true,
        }
    }

    /// E.g. `sum f32`, `cumsum f32`, `exclusive cummax i32`.
    pub fn name(&self) -> String {
        match *self {
            Prepare::Reduce { op, dtype } => format!("{} {dtype}", op.name()),
            Prepare::Scan {
                op,
                dtype,
                exclusive,
            } => {
                let kind = match op {
                    ScanOp::Add => "cumsum",
                    ScanOp::Min => "cummin",
                    ScanOp::Max => "cummax",
                };
                let excl = if exclusive { "exclusive " } else { "" };
                format!("{excl}{kind} {dtype}")
            }
        }
    }
}
