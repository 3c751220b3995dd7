//! What a reduction is: the operations ([`ReduceOp`]), the axes ([`Axes`]) and the options
//! ([`Reduction`]); recorded by [`Recorder::reduce`](crate::Recorder::reduce) and the
//! methods named after each operation, and run in one step by
//! [`Context::run`](crate::Context::run).
//!
//! | operation | result type | empty input | NaN |
//! |---|---|---|---|
//! | `sum`, `prod` | the input type (f32 or the input type for f16/bf16) | 0, 1 | propagates |
//! | `min`, `max` | the input type | [`Error::EmptyInput`] | NaN wins |
//! | `mean` | f32 (or the 16-bit input type) | [`Error::EmptyInput`] | propagates |
//! | `var`, `std` | f32 (or the 16-bit input type) | [`Error::EmptyInput`] | propagates; an infinite element gives NaN |
//! | `argmin`, `argmax` | u32 | [`Error::EmptyInput`] | the first NaN's index |
//! | `nansum` | the input type | 0 | ignored (all NaN: 0) |
//! | `nanmean` | f32 (or the 16-bit input type) | [`Error::EmptyInput`] | ignored (all NaN: NaN) |
//! | `nanmin`, `nanmax` | the input type | [`Error::EmptyInput`] | ignored (all NaN: NaN) |
//! | `nanargmin`, `nanargmax` | u32 | [`Error::EmptyInput`] | ignored (all NaN: `u32::MAX`) |
//! | `any`, `all`, `count_nonzero` | u32 | 0, 1, 0 | non-zero (-0.0 is zero) |
//! | `logsumexp` | f32 (or the 16-bit input type) | -inf | propagates; +inf gives +inf |
//! | `aminmax` | the input type, pairs (last axis of 2) | [`Error::EmptyInput`] | NaN wins |
//! | `norm1`, `norm2`, `norm0`, `normp` | f32 (or the 16-bit input type); floats only | 0 | propagates |
//! | `norm_inf`, `norm_neginf` | f32 (or the 16-bit input type); floats only | [`Error::EmptyInput`] | propagates |
//! | `dot` (two inputs) | the input type | 0 | propagates |
//!
//! Every operation takes a [`Map`] applied to each element first (float inputs; not `dot`).
//! The NaN-ignoring forms of integer inputs are the plain operations. Accuracy: the 2-norm is
//! accumulated with scaling (BLAS `nrm2`), so it overflows or underflows only where the norm
//! itself does; its relative error is within `2 (r + log2 r + 12) u` for `r` elements
//! (`u = 2^-24`), as the tests check. logsumexp's absolute error is within
//! `4 (r + log2 r + 12) u + 2u |result| + 4u max|x|` plus the device's `exp`/`log` error.
//!
//! Integer sums and products wrap modulo 2^32. f16 and bf16 accumulate in f32. The crate
//! documentation states the error bound of float sums and the rules for signed zeros and
//! subnormals; the `plan` layer (ARCHITECTURE.md) how a reduction becomes passes.

use crate::element::DType;
use crate::error::{Error, Result};
use crate::ops::map::Map;

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
    /// Sum of the elements that are not NaN (NumPy's `nansum`; all NaN or empty gives 0). On
    /// integers, the sum.
    NanSum,
    /// Mean of the elements that are not NaN (NumPy's `nanmean`): NaN where all are NaN. On
    /// integers, the mean.
    NanMean,
    /// Minimum ignoring NaN (NumPy's `nanmin`): NaN where all are NaN. On integers, the minimum.
    NanMin,
    /// Maximum ignoring NaN; see [`ReduceOp::NanMin`].
    NanMax,
    /// Index of the minimum ignoring NaN (NumPy's `nanargmin`). Where all are NaN the result is
    /// `u32::MAX` (NumPy raises an error, which a GPU result cannot). On integers, argmin.
    NanArgmin,
    /// Index of the maximum ignoring NaN; see [`ReduceOp::NanArgmin`].
    NanArgmax,
    /// 1 if any element is non-zero, else 0 (u32; NaN is non-zero, -0.0 is zero; empty: 0).
    Any,
    /// 1 if every element is non-zero, else 0 (u32; empty: 1).
    All,
    /// Number of non-zero elements (u32; NaN counts, -0.0 does not).
    CountNonzero,
    /// `log(sum(exp(x)))` in one pass: a running maximum with a rescaled sum, so large inputs
    /// neither overflow nor lose precision. All -inf (or empty) gives -inf, any +inf gives
    /// +inf, any NaN gives NaN. Integers are converted to f32.
    LogSumExp,
    /// Minimum and maximum in one pass (PyTorch's `aminmax`): each result is a pair, so the
    /// result shape gains a last axis of length 2 (`[..., 0]` the minimum, `[..., 1]` the
    /// maximum). NaN rules as [`ReduceOp::Min`] and [`ReduceOp::Max`].
    AMinMax,
    /// Vector 1-norm: the sum of absolute values (floats only).
    Norm1,
    /// Vector 2-norm (floats only), accumulated with scaling as BLAS `nrm2` does: no overflow
    /// or underflow for any finite input whose norm is a finite f32.
    Norm2,
    /// Infinity norm: the largest absolute value (floats only).
    NormInf,
    /// Negative infinity norm: the smallest absolute value (floats only).
    NormNegInf,
    /// "0-norm": the number of non-zero elements, as f32 (floats only).
    Norm0,
    /// p-norm for the `p` of [`Reduction::p`]: `sum(|x|^p)^(1/p)`, unscaled (as PyTorch).
    NormP,
    /// Dot product of two arrays of one shape (recorded by
    /// [`Recorder::dot`](crate::Recorder::dot); floats accumulate in f32, integers wrap).
    Dot,
}

impl ReduceOp {
    /// Every reduction, in a fixed order.
    pub const ALL: [ReduceOp; 27] = [
        ReduceOp::Sum,
        ReduceOp::Prod,
        ReduceOp::Min,
        ReduceOp::Max,
        ReduceOp::Mean,
        ReduceOp::Var,
        ReduceOp::Std,
        ReduceOp::Argmin,
        ReduceOp::Argmax,
        ReduceOp::NanSum,
        ReduceOp::NanMean,
        ReduceOp::NanMin,
        ReduceOp::NanMax,
        ReduceOp::NanArgmin,
        ReduceOp::NanArgmax,
        ReduceOp::Any,
        ReduceOp::All,
        ReduceOp::CountNonzero,
        ReduceOp::LogSumExp,
        ReduceOp::AMinMax,
        ReduceOp::Norm1,
        ReduceOp::Norm2,
        ReduceOp::NormInf,
        ReduceOp::NormNegInf,
        ReduceOp::Norm0,
        ReduceOp::NormP,
        ReduceOp::Dot,
    ];

    /// The nine reductions the library began with (sum, prod, min, max, mean, var, std,
    /// argmin, argmax).
    pub const BASIC: [ReduceOp; 9] = {
        let a = ReduceOp::ALL;
        [a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]]
    };

    /// Lower-case name (`sum`, `nanmean`, `count_nonzero`, `logsumexp`, `norm2`, ...).
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
            ReduceOp::NanSum => "nansum",
            ReduceOp::NanMean => "nanmean",
            ReduceOp::NanMin => "nanmin",
            ReduceOp::NanMax => "nanmax",
            ReduceOp::NanArgmin => "nanargmin",
            ReduceOp::NanArgmax => "nanargmax",
            ReduceOp::Any => "any",
            ReduceOp::All => "all",
            ReduceOp::CountNonzero => "count_nonzero",
            ReduceOp::LogSumExp => "logsumexp",
            ReduceOp::AMinMax => "aminmax",
            ReduceOp::Norm1 => "norm1",
            ReduceOp::Norm2 => "norm2",
            ReduceOp::NormInf => "norm_inf",
            ReduceOp::NormNegInf => "norm_neginf",
            ReduceOp::Norm0 => "norm0",
            ReduceOp::NormP => "normp",
            ReduceOp::Dot => "dot",
        }
    }

    /// Parses a name such as `sum`.
    pub fn parse(s: &str) -> Option<ReduceOp> {
        ReduceOp::ALL.into_iter().find(|op| op.name() == s)
    }

    /// The vector norm of order `ord` (PyTorch's `linalg.vector_norm`): 1, 2, +inf, -inf, 0,
    /// or any other p > 0 ([`ReduceOp::NormP`], with `p` set by [`Reduction::norm`]).
    pub fn norm(ord: f32) -> Result<ReduceOp> {
        Ok(match ord {
            1.0 => ReduceOp::Norm1,
            2.0 => ReduceOp::Norm2,
            0.0 => ReduceOp::Norm0,
            f32::INFINITY => ReduceOp::NormInf,
            f32::NEG_INFINITY => ReduceOp::NormNegInf,
            p if p > 0.0 && p.is_finite() => ReduceOp::NormP,
            _ => {
                return Err(Error::InvalidParameter {
                    name: "ord",
                    value: ord.to_string(),
                    allowed: "a vector norm's order is 0, any p > 0, inf or -inf",
                })
            }
        })
    }

    /// Whether `input` is a type this operation takes: norms and the NaN-ignoring operations
    /// take floats (the NaN-ignoring ones on integers are their plain forms, see
    /// [`ReduceOp::for_input`]); every other operation takes every type.
    pub const fn accepts(self, input: DType) -> bool {
        !self.is_norm() || input.is_float()
    }

    /// The operation the kernels run for `input`: the NaN-ignoring operations on integers are
    /// the plain ones (integers have no NaN).
    pub const fn for_input(self, input: DType) -> ReduceOp {
        if input.is_float() {
            return self;
        }
        match self {
            ReduceOp::NanSum => ReduceOp::Sum,
            ReduceOp::NanMean => ReduceOp::Mean,
            ReduceOp::NanMin => ReduceOp::Min,
            ReduceOp::NanMax => ReduceOp::Max,
            ReduceOp::NanArgmin => ReduceOp::Argmin,
            ReduceOp::NanArgmax => ReduceOp::Argmax,
            op => op,
        }
    }

    /// Whether [`Recorder::segment_reduce`](crate::Recorder::segment_reduce) takes this
    /// operation: sum, prod, min, max, mean, argmin, argmax.
    pub const fn segmentable(self) -> bool {
        self.is_simple() || matches!(self, ReduceOp::Argmin | ReduceOp::Argmax)
    }

    /// Whether this is one of the vector norms.
    pub const fn is_norm(self) -> bool {
        matches!(
            self,
            ReduceOp::Norm1
                | ReduceOp::Norm2
                | ReduceOp::NormInf
                | ReduceOp::NormNegInf
                | ReduceOp::Norm0
                | ReduceOp::NormP
        )
    }

    /// Whether the reduction over zero elements is defined (sum → 0, prod → 1, nansum → 0,
    /// any → 0, all → 1, count → 0, logsumexp → -inf, norms of order 0, 1, 2 and p → 0, dot
    /// → 0).
    pub const fn has_identity(self) -> bool {
        matches!(
            self,
            ReduceOp::Sum
                | ReduceOp::Prod
                | ReduceOp::NanSum
                | ReduceOp::Any
                | ReduceOp::All
                | ReduceOp::CountNonzero
                | ReduceOp::LogSumExp
                | ReduceOp::Norm1
                | ReduceOp::Norm2
                | ReduceOp::Norm0
                | ReduceOp::NormP
                | ReduceOp::Dot
        )
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
        matches!(
            self,
            ReduceOp::Argmin | ReduceOp::Argmax | ReduceOp::NanArgmin | ReduceOp::NanArgmax
        )
    }

    /// Whether the result is a u32 flag or count (any, all, count_nonzero).
    pub const fn is_count(self) -> bool {
        matches!(self, ReduceOp::Any | ReduceOp::All | ReduceOp::CountNonzero)
    }

    /// Results per output position: 2 for aminmax (minimum, maximum), else 1.
    pub const fn values_per_result(self) -> usize {
        match self {
            ReduceOp::AMinMax => 2,
            _ => 1,
        }
    }

    /// Type the kernels compute values in for `input`: u32 for any/all/count, f32 for the
    /// means, var/std, logsumexp, norms and for 16-bit floats, else the input type.
    pub const fn accumulator(self, input: DType) -> DType {
        match self {
            _ if self.is_count() => DType::U32,
            ReduceOp::Mean
            | ReduceOp::NanMean
            | ReduceOp::Var
            | ReduceOp::Std
            | ReduceOp::LogSumExp => DType::F32,
            _ if self.is_norm() => DType::F32,
            _ if input.is_half() => DType::F32,
            _ => input,
        }
    }

    /// Type the kernels convert an input element to before making a state of it: the input's
    /// value type for any/all/count (f32 for 16-bit floats), else the accumulator type.
    pub const fn element_value(self, input: DType) -> DType {
        match self {
            _ if self.is_count() && input.is_half() => DType::F32,
            _ if self.is_count() => input,
            _ => self.accumulator(input),
        }
    }

    /// Type the kernels write results in: u32 for indices and any/all/count, else the
    /// accumulator type. (A 16-bit result type is produced by converting this f32 result.)
    pub const fn output(self, input: DType) -> DType {
        if self.is_arg() {
            DType::U32
        } else {
            self.accumulator(input)
        }
    }

    /// The default result type for `input`, as PyTorch picks it: u32 for indices and
    /// any/all/count; f32 for means, var/std, logsumexp and norms of 32-bit input; else the
    /// input type.
    pub const fn default_output(self, input: DType) -> DType {
        match self {
            _ if self.is_arg() || self.is_count() => DType::U32,
            ReduceOp::Mean
            | ReduceOp::NanMean
            | ReduceOp::Var
            | ReduceOp::Std
            | ReduceOp::LogSumExp
                if !input.is_half() =>
            {
                DType::F32
            }
            _ if self.is_norm() && !input.is_half() => DType::F32,
            _ => input,
        }
    }

    /// Result types allowed for `input` (PyTorch's `dtype=` choice): for f16/bf16 input every
    /// float reduction may return f32 or the input type.
    pub fn allowed_outputs(self, input: DType) -> Vec<DType> {
        let mut v = vec![self.default_output(input)];
        if input.is_half() && !self.is_arg() && !self.is_count() {
            v.push(DType::F32);
        }
        v
    }

    /// Bytes of one partial state between passes.
    pub const fn state_bytes(self) -> u64 {
        match self {
            ReduceOp::Var | ReduceOp::Std | ReduceOp::Norm2 => 12,
            _ if self.is_arg() => 8,
            ReduceOp::NanMean | ReduceOp::LogSumExp | ReduceOp::AMinMax => 8,
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

/// `..` is every axis ([`Axes::All`]): `rec.sum(&x, .., false)`.
impl From<std::ops::RangeFull> for Axes {
    fn from(_: std::ops::RangeFull) -> Axes {
        Axes::All
    }
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
/// [`Recorder::reduce_into`](crate::Recorder::reduce_into).
///
/// ```
/// use wgpu_reduce::{Reduction, ReduceOp};
/// let r = Reduction::new(ReduceOp::Var).axes([0, -1]).keepdim(true).correction(0);
/// assert_eq!(r.output_shape(&[2, 3, 4]).unwrap(), vec![1, 3, 1]);
/// ```
#[derive(Debug, Clone, PartialEq)]
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
    /// [`ReduceOp::NormP`]'s order p (default 2); set with [`Reduction::norm`].
    pub p: f32,
    /// A function applied to each element first (see [`Map`]; float inputs only).
    pub map: Option<Map>,
}

impl Reduction {
    /// `op` over every axis, `keepdim` false, correction 1.
    pub fn new(op: ReduceOp) -> Reduction {
        Reduction {
            op,
            axes: Axes::All,
            keepdim: false,
            correction: 1,
            p: 2.0,
            map: None,
        }
    }

    /// Applies `map` to each element before the reduction (see [`Map`]).
    pub fn map(mut self, map: &Map) -> Reduction {
        self.map = Some(map.clone());
        self
    }

    /// The vector norm of order `ord` over every axis (PyTorch's `linalg.vector_norm`): 1, 2,
    /// inf, -inf, 0 or any p > 0; another order is [`Error::InvalidParameter`].
    ///
    /// ```
    /// use wgpu_reduce::{Reduction, ReduceOp};
    /// assert_eq!(Reduction::norm(2.0).unwrap().op, ReduceOp::Norm2);
    /// let r = Reduction::norm(3.0).unwrap().axes(-1);
    /// assert_eq!((r.op, r.p), (ReduceOp::NormP, 3.0));
    /// assert!(Reduction::norm(-1.0).is_err());
    /// ```
    pub fn norm(ord: f32) -> Result<Reduction> {
        let mut r = Reduction::new(ReduceOp::norm(ord)?);
        r.p = ord;
        Ok(r)
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
                allowed: "argmin, argmax and their NaN-ignoring forms take one axis or the whole \
                          array (flat index), as in PyTorch and NumPy",
            });
        }
        Ok(mask)
    }

    /// The shape of the result for an input of `shape` (aminmax's results gain a last axis
    /// of length 2).
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
            .chain((self.op.values_per_result() > 1).then_some(self.op.values_per_result()))
            .collect()
    }
}
