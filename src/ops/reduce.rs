//! What a reduction is: the operations ([`ReduceOp`]), the axes ([`Axes`]) and the options
//! ([`Reduction`]); recorded by [`Recorder::reduce`](crate::Recorder::reduce) and its
//! shorthands, run at once by [`Context::reduce`](crate::Context::reduce) and the blocking
//! one-liners.
//!
//! | operation | result type | empty input | NaN |
//! |---|---|---|---|
//! | `sum`, `prod` | the input type (f32 or the input type for f16/bf16) | 0, 1 | propagates |
//! | `min`, `max` | the input type | [`Error::EmptyInput`] | NaN wins |
//! | `mean` | f32 (or the 16-bit input type) | [`Error::EmptyInput`] | propagates |
//! | `var`, `std` | f32 (or the 16-bit input type) | [`Error::EmptyInput`] | propagates; an infinite element gives NaN |
//! | `argmin`, `argmax` | u32 | [`Error::EmptyInput`] | the first NaN's index |
//!
//! Integer sums and products wrap modulo 2^32. f16 and bf16 accumulate in f32. The crate
//! documentation states the error bound of float sums and the rules for signed zeros and
//! subnormals; the `plan` layer (ARCHITECTURE.md) how a reduction becomes passes.

use crate::element::DType;
use crate::error::{Error, Result};

/// Most dimensions a reduced array may have.
pub const MAX_DIMS: usize = 8;

/// A reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ReduceOp {
    /// Sum. Floats accumulate in f32; integers wrap modulo 2^32.
    Sum,
    /// Product. Integers wrap modulo 2^32.
    Prod,
    /// Minimum. A NaN anywhere makes the result NaN.
    Min,
    /// Maximum. A NaN anywhere makes the result NaN.
    Max,
    /// Arithmetic mean, accumulated in f32 (result f32, or the input type for f16/bf16).
    Mean,
    /// Variance with a correction (`n - correction` divides the sum of squared deviations),
    /// computed with Welford/Chan's parallel algorithm in f32.
    Var,
    /// Standard deviation: the square root of [`ReduceOp::Var`].
    Std,
    /// Index of the minimum (u32; flat index for a whole array). Ties go to the lowest index;
    /// the first NaN wins, as in PyTorch.
    Argmin,
    /// Index of the maximum; same rules as [`ReduceOp::Argmin`].
    Argmax,
}

impl ReduceOp {
    /// Every reduction, in a fixed order.
    pub const ALL: [ReduceOp; 9] = [
        ReduceOp::Sum,
        ReduceOp::Prod,
        ReduceOp::Min,
        ReduceOp::Max,
        ReduceOp::Mean,
        ReduceOp::Var,
        ReduceOp::Std,
        ReduceOp::Argmin,
        ReduceOp::Argmax,
    ];

    /// Lower-case name (`sum`, `prod`, `min`, `max`, `mean`, `var`, `std`, `argmin`, `argmax`).
    pub const fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Min => "min",
            ReduceOp::Max => "max",
            ReduceOp::Mean => "mean",
            ReduceOp::Var => "var",
            ReduceOp::Std => "std",
            ReduceOp::Argmin => "argmin",
            ReduceOp::Argmax => "argmax",
        }
    }

    /// Parses a name such as `sum`.
    pub fn parse(s: &str) -> Option<ReduceOp> {
        ReduceOp::ALL.into_iter().find(|op| op.name() == s)
    }

    /// Whether the reduction over zero elements is defined (sum → 0, prod → 1).
    pub const fn has_identity(self) -> bool {
        matches!(self, ReduceOp::Sum | ReduceOp::Prod)
    }

    /// Whether the state is a single value combined by a scalar operation (sum, prod, min, max,
    /// mean): these can use the whole-array vec4 kernel and subgroup operations.
    pub const fn is_simple(self) -> bool {
        matches!(
            self,
            ReduceOp::Sum | ReduceOp::Prod | ReduceOp::Min | ReduceOp::Max | ReduceOp::Mean
        )
    }

    /// Whether the result is an index.
    pub const fn is_arg(self) -> bool {
        matches!(self, ReduceOp::Argmin | ReduceOp::Argmax)
    }

    /// Type the kernels compute values in for `input`: f32 for mean/var/std and for 16-bit
    /// floats, else the input type.
    pub const fn accumulator(self, input: DType) -> DType {
        match self {
            ReduceOp::Mean | ReduceOp::Var | ReduceOp::Std => DType::F32,
            _ if input.is_half() => DType::F32,
            _ => input,
        }
    }

    /// Type the kernels write results in: u32 for argmin/argmax, else the accumulator type.
    /// (A 16-bit result type is produced by converting this f32 result.)
    pub const fn output(self, input: DType) -> DType {
        if self.is_arg() {
            DType::U32
        } else {
            self.accumulator(input)
        }
    }

    /// The default result type for `input`, as PyTorch picks it: the input type for
    /// sum/prod/min/max, the input type for mean/var/std of f16/bf16 and f32 otherwise, u32
    /// indices for argmin/argmax.
    pub const fn default_output(self, input: DType) -> DType {
        match self {
            ReduceOp::Argmin | ReduceOp::Argmax => DType::U32,
            ReduceOp::Mean | ReduceOp::Var | ReduceOp::Std if !input.is_half() => DType::F32,
            _ => input,
        }
    }

    /// Result types allowed for `input` (PyTorch's `dtype=` choice): for f16/bf16 input every
    /// float reduction may return f32 or the input type.
    pub fn allowed_outputs(self, input: DType) -> Vec<DType> {
        let mut v = vec![self.default_output(input)];
        if input.is_half() && !self.is_arg() {
            v.push(DType::F32);
        }
        v
    }

    /// Bytes of one partial state between passes.
    pub const fn state_bytes(self) -> u64 {
        match self {
            ReduceOp::Var | ReduceOp::Std => 12,
            ReduceOp::Argmin | ReduceOp::Argmax => 8,
            _ => 4,
        }
    }
}

crate::error::from_str_by_name!(ReduceOp, "operation");

/// Which axes a reduction runs along.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Axes {
    /// Every axis: the whole array reduces to one value.
    #[default]
    All,
    /// The listed axes (negative ones count from the end). An empty list reduces nothing, as
    /// in NumPy (`axis=()`).
    List(Vec<i32>),
}

impl From<i32> for Axes {
    fn from(a: i32) -> Axes {
        Axes::List(vec![a])
    }
}
impl From<&[i32]> for Axes {
    fn from(a: &[i32]) -> Axes {
        Axes::List(a.to_vec())
    }
}
impl<const N: usize> From<[i32; N]> for Axes {
    fn from(a: [i32; N]) -> Axes {
        Axes::List(a.to_vec())
    }
}
impl From<Vec<i32>> for Axes {
    fn from(a: Vec<i32>) -> Axes {
        Axes::List(a)
    }
}

/// A reduction with its axes and options, for [`Recorder::reduce`](crate::Recorder::reduce) and
/// [`Context::reduce`](crate::Context::reduce).
///
/// ```
/// use wgpu_reduce::{Reduction, ReduceOp};
/// let r = Reduction::new(ReduceOp::Var).axes([0, -1]).keepdim(true).correction(0);
/// assert_eq!(r.output_shape(&[2, 3, 4]).unwrap(), vec![1, 3, 1]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduction {
    /// The operation.
    pub op: ReduceOp,
    /// The axes reduced ([`Axes::All`] by default).
    pub axes: Axes,
    /// Keep reduced axes as size-1 dimensions (default false).
    pub keepdim: bool,
    /// Var/std: the divisor is `n - correction` (default 1, Bessel's correction, as PyTorch;
    /// NumPy's `ddof` default is 0). Where `n <= correction` the result is NaN or infinity
    /// (PyTorch's rule).
    pub correction: u32,
}

impl Reduction {
    /// `op` over every axis, `keepdim` false, correction 1.
    pub fn new(op: ReduceOp) -> Reduction {
        Reduction {
            op,
            axes: Axes::All,
            keepdim: false,
            correction: 1,
        }
    }

    /// Reduces along `axes` (an `i32`, an array, slice or `Vec` of them, or [`Axes::All`]).
    pub fn axes(mut self, axes: impl Into<Axes>) -> Reduction {
        self.axes = axes.into();
        self
    }

    /// Keeps reduced axes as size-1 dimensions.
    pub fn keepdim(mut self, keepdim: bool) -> Reduction {
        self.keepdim = keepdim;
        self
    }

    /// Sets var/std's correction (`ddof`).
    pub fn correction(mut self, correction: u32) -> Reduction {
        self.correction = correction;
        self
    }

    /// Which dimensions of `shape` are reduced, after checking the axes.
    pub fn reduced_mask(&self, shape: &[usize]) -> Result<Vec<bool>> {
        let ndim = shape.len();
        if ndim > MAX_DIMS {
            return Err(Error::TooManyDims {
                ndim,
                max: MAX_DIMS,
            });
        }
        let list = match &self.axes {
            Axes::All => return Ok(vec![true; ndim]),
            Axes::List(list) => list,
        };
        let mut mask = vec![false; ndim];
        for &axis in list {
            // A 0-d array accepts axis 0 and -1, as PyTorch does.
            let n = ndim.max(1) as i64;
            let a = i64::from(axis);
            let norm = if a < 0 { a + n } else { a };
            if norm < 0 || norm >= n {
                return Err(Error::AxisOutOfRange { axis, ndim });
            }
            let norm = norm as usize;
            if ndim == 0 {
                continue;
            }
            if mask[norm] {
                return Err(Error::DuplicateAxis {
                    axis: norm,
                    axes: list.clone(),
                });
            }
            mask[norm] = true;
        }
        if self.op.is_arg() && list.len() > 1 {
            return Err(Error::UnsupportedAxes {
                op: self.op.name(),
                axes: list.clone(),
                allowed: "argmin and argmax take one axis or the whole array (flat index), as \
                          in PyTorch and NumPy",
            });
        }
        Ok(mask)
    }

    /// The shape of the result for an input of `shape`.
    pub fn output_shape(&self, shape: &[usize]) -> Result<Vec<usize>> {
        Ok(self.shape_for_mask(shape, &self.reduced_mask(shape)?))
    }

    pub(crate) fn shape_for_mask(&self, shape: &[usize], mask: &[bool]) -> Vec<usize> {
        shape
            .iter()
            .zip(mask)
            .filter_map(|(&d, &m)| match (m, self.keepdim) {
                (false, _) => Some(d),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect()
    }
}
