//! The reductions users call, all methods of [`Recorder`]: [`Recorder::reduce`] for any
//! [`Reduction`] (an operation chosen at run time, or a result type other than the default),
//! and one method per operation, each with the same parameters in the same order (the array,
//! the operation's own parameter if it has one, `axes`, `keepdim`) and a result type fixed at
//! compile time. Segmented reductions are at the end.

use crate::array::GpuArray;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::ops::{Axes, ReduceOp, Reduction};
use crate::record::Recorder;

/// A `Recorder` method reducing along axes with `keepdim`, for one operation and result type.
macro_rules! reduce_method {
    ($(#[$doc:meta])* $name:ident, $op:ident, $out:ty) => {
        $(#[$doc])*
        pub fn $name<T: Element>(
            &mut self,
            x: &GpuArray<T>,
            axes: impl Into<Axes>,
            keepdim: bool,
        ) -> Result<GpuArray<$out>> {
            let red = Reduction::new(ReduceOp::$op).axes(axes).keepdim(keepdim);
            self.reduce(x, &red)
        }
    };
}

/// A `Recorder` method for var or std along axes, with a correction and `keepdim`.
macro_rules! spread_method {
    ($(#[$doc:meta])* $name:ident, $op:ident) => {
        $(#[$doc])*
        pub fn $name<T: Element>(
            &mut self,
            x: &GpuArray<T>,
            correction: u32,
            axes: impl Into<Axes>,
            keepdim: bool,
        ) -> Result<GpuArray<f32>> {
            let red = Reduction::new(ReduceOp::$op)
                .axes(axes)
                .correction(correction)
                .keepdim(keepdim);
            self.reduce(x, &red)
        }
    };
}

impl Recorder {
    /// Records any reduction: `red` says the operation, axes, `keepdim` and correction; `O` is
    /// the result type. This is the form for an operation chosen at run time (parsed from a
    /// name, say) and for a result type other than the operation's default (f32 sums of f16,
    /// as PyTorch's `dtype=`): `O` is checked when the reduction is recorded against
    /// [`ReduceOp::allowed_outputs`], and a type not allowed is
    /// [`Error::UnsupportedOutput`]. The named methods ([`sum`](Self::sum),
    /// [`argmax`](Self::argmax), ...) fix their result types at compile time.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{half::f16, Context, ReduceOp, Reduction};
    /// let ctx = Context::new()?;
    /// let x = ctx.upload_shaped(&vec![f16::from_f32(0.5); 6], &[2, 3])?;
    /// let rows = ctx.run(|rec| rec.reduce::<f16, f32>(&x, &Reduction::new(ReduceOp::Sum).axes(-1)))?;
    /// assert_eq!(rows, vec![1.5, 1.5]);
    /// # Ok(()) }
    /// ```
    pub fn reduce<T: Element, O: Element>(
        &mut self,
        x: &GpuArray<T>,
        red: &Reduction,
    ) -> Result<GpuArray<O>> {
        let out = self.lease_output::<O>(red.output_shape(x.shape())?)?;
        self.record_reduction(red, &x.raw(), x.shape(), &out.raw())?;
        Ok(out)
    }

    /// Records `red` over `x` into `out`, a caller's array with as many elements as the
    /// result shape (its own shape is not changed); `O` is checked as in
    /// [`reduce`](Self::reduce).
    pub fn reduce_into<T: Element, O: Element>(
        &mut self,
        x: &GpuArray<T>,
        red: &Reduction,
        out: &GpuArray<O>,
    ) -> Result<()> {
        self.record_reduction(red, &x.raw(), x.shape(), &out.raw())
    }

    reduce_method! {
        /// Records the sum along `axes` ([`Axes::All`] or `..` for the whole array; an axis,
        /// or a list); the result has `x`'s type. Floats are summed in f32 (pairwise/tree
        /// order: see the crate docs for the error bound); integers wrap modulo 2^32. The sum
        /// of no elements is 0.
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        /// let mut rec = ctx.recorder();
        /// let all = rec.sum(&x, .., false)?;           // shape []
        /// let cols = rec.sum(&x, 0, false)?;           // shape [3]
        /// let rows = rec.sum(&x, -1, true)?;           // shape [2, 1]
        /// let (ta, tc, tr) = (rec.read(&all)?, rec.read(&cols)?, rec.read(&rows)?);
        /// let res = rec.submit()?.wait()?;
        /// assert_eq!(res.scalar(&ta)?, 21.0);
        /// assert_eq!(res.get(&tc)?, vec![5.0, 7.0, 9.0]);
        /// assert_eq!(res.get(&tr)?, vec![6.0, 15.0]);
        /// # Ok(()) }
        /// ```
        sum, Sum, T
    }
    reduce_method! {
        /// Records the product along `axes` (1 for no elements; integers wrap).
        prod, Prod, T
    }
    reduce_method! {
        /// Records the minimum along `axes` (NaN where a reduced element is NaN;
        /// [`Error::EmptyInput`] for none).
        min, Min, T
    }
    reduce_method! {
        /// Records the maximum along `axes` (NaN where a reduced element is NaN;
        /// [`Error::EmptyInput`] for none).
        max, Max, T
    }
    reduce_method! {
        /// Records the mean along `axes`, accumulated and returned in f32
        /// ([`Error::EmptyInput`] for none).
        mean, Mean, f32
    }
    spread_method! {
        /// Records the variance along `axes` in f32, dividing by `n - correction` (1 is
        /// PyTorch's default, 0 NumPy's).
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[1.0f32, 3.0, 10.0, 14.0], &[2, 2])?;
        /// assert_eq!(ctx.run(|rec| rec.var(&x, 1, 1, false))?, vec![2.0, 8.0]);
        /// # Ok(()) }
        /// ```
        var, Var
    }
    spread_method! {
        /// Records the standard deviation along `axes` in f32 (the square root of
        /// [`Recorder::var`]).
        std, Std
    }
    reduce_method! {
        /// Records the index of the minimum along one axis (u32 indices along it), or over the
        /// whole array with [`Axes::All`] or `..` (a flat index); ties go to the lowest index,
        /// and a NaN wins (the first NaN). Several axes are [`Error::UnsupportedAxes`].
        argmin, Argmin, u32
    }
    reduce_method! {
        /// Records the index of the maximum along one axis or over the whole array; see
        /// [`Recorder::argmin`].
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[1.0f32, 9.0, 9.0, 7.0, 0.0, 2.0], &[2, 3])?;
        /// assert_eq!(ctx.run(|rec| rec.argmax(&x, 1, false))?, vec![1, 0]); // ties: lowest
        /// assert_eq!(ctx.run(|rec| rec.argmax(&x, .., false))?, vec![1]);   // flat index
        /// # Ok(()) }
        /// ```
        argmax, Argmax, u32
    }
    reduce_method! {
        /// Records the sum of the elements that are not NaN along `axes` (NumPy's `nansum`:
        /// 0 where all are NaN); the result has `x`'s type.
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload(&[1.0f32, f32::NAN, 2.5])?;
        /// assert_eq!(ctx.run(|rec| rec.nansum(&x, .., false))?, vec![3.5]);
        /// # Ok(()) }
        /// ```
        nansum, NanSum, T
    }
    reduce_method! {
        /// Records the mean of the elements that are not NaN along `axes`, in f32 (NaN where
        /// all are NaN).
        nanmean, NanMean, f32
    }
    reduce_method! {
        /// Records the minimum ignoring NaN along `axes` (NaN where all are NaN).
        nanmin, NanMin, T
    }
    reduce_method! {
        /// Records the maximum ignoring NaN along `axes` (NaN where all are NaN).
        nanmax, NanMax, T
    }
    reduce_method! {
        /// Records the index of the minimum ignoring NaN, along one axis or over the whole
        /// array (flat index); `u32::MAX` where all are NaN.
        nanargmin, NanArgmin, u32
    }
    reduce_method! {
        /// Records the index of the maximum ignoring NaN; see [`Recorder::nanargmin`].
        nanargmax, NanArgmax, u32
    }
    reduce_method! {
        /// Records 1 where any element along `axes` is non-zero, else 0 (NaN is non-zero, -0.0
        /// is zero).
        any, Any, u32
    }
    reduce_method! {
        /// Records 1 where every element along `axes` is non-zero, else 0 (1 for none).
        all, All, u32
    }
    reduce_method! {
        /// Records the number of non-zero elements along `axes`.
        count_nonzero, CountNonzero, u32
    }
    reduce_method! {
        /// Records `log(sum(exp(x)))` along `axes` in f32, in one pass and without overflow
        /// (see [`ReduceOp::LogSumExp`]).
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[1e4f32, 1e4, 0.0, f32::NEG_INFINITY], &[2, 2])?;
        /// let v = ctx.run(|rec| rec.logsumexp(&x, -1, false))?;
        /// assert!((v[0] - (1e4 + 2f32.ln())).abs() < 1e-2 && v[1] == 0.0);
        /// # Ok(()) }
        /// ```
        logsumexp, LogSumExp, f32
    }
    reduce_method! {
        /// Records the minimum and the maximum along `axes` in one pass: the result's shape
        /// gains a last axis of length 2 (`[..., 0]` minimum, `[..., 1]` maximum).
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[3i32, -1, 7, 0, 5, 2], &[2, 3])?;
        /// assert_eq!(ctx.run(|rec| rec.aminmax(&x, 1, false))?, vec![-1, 7, 0, 5]);
        /// # Ok(()) }
        /// ```
        aminmax, AMinMax, T
    }

    /// Records the vector norm of order `ord` along `axes` in f32 (PyTorch's
    /// `linalg.vector_norm`): 1, 2, inf, -inf, 0 or any p > 0. The 2-norm is accumulated
    /// with scaling, so it neither overflows nor underflows where the norm itself is a finite
    /// f32. Floats only.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[3e30f32, 4e30])?;
    /// assert_eq!(ctx.run(|rec| rec.norm(&x, 2.0, .., false))?, vec![5e30]);
    /// # Ok(()) }
    /// ```
    pub fn norm<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        ord: f32,
        axes: impl Into<Axes>,
        keepdim: bool,
    ) -> Result<GpuArray<f32>> {
        self.reduce(x, &Reduction::norm(ord)?.axes(axes).keepdim(keepdim))
    }

    /// Records `sum(a * b)` along `axes` for `a` and `b` of one shape and type (`..` for the
    /// dot product of the whole arrays, `-1` for row-wise dot products of two matrices):
    /// floats accumulate in f32, integers wrap. Arrays of different shapes or types are
    /// [`Error::InputsDiffer`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let a = ctx.upload(&[1.0f32, 2.0, 3.0])?;
    /// let b = ctx.upload(&[4.0f32, -5.0, 6.0])?;
    /// assert_eq!(ctx.run(|rec| rec.dot(&a, &b, .., false))?, vec![12.0]);
    /// # Ok(()) }
    /// ```
    pub fn dot<T: Element>(
        &mut self,
        a: &GpuArray<T>,
        b: &GpuArray<T>,
        axes: impl Into<Axes>,
        keepdim: bool,
    ) -> Result<GpuArray<T>> {
        if a.shape() != b.shape() {
            return Err(Error::InputsDiffer {
                op: "dot",
                a: a.shape().to_vec(),
                a_dtype: a.dtype(),
                b: b.shape().to_vec(),
                b_dtype: b.dtype(),
            });
        }
        let red = Reduction::new(ReduceOp::Dot).axes(axes).keepdim(keepdim);
        let out = self.lease_output::<T>(red.output_shape(a.shape())?)?;
        let (ra, rb) = (a.raw(), b.raw());
        self.record_reduction_of(&red, &ra, Some(&rb), a.shape(), &out.raw())?;
        Ok(out)
    }
}

/// Checks host offsets of `n` values: non-decreasing, at most `n`, at least one. Returns the
/// longest segment.
fn check_offsets(offsets: &[u32], n: usize) -> Result<u64> {
    if offsets.is_empty() {
        return Err(Error::InvalidOffsets {
            segment: 0,
            reason: "no offsets were given (a segmented reduction takes segments + 1)".into(),
        });
    }
    if offsets[0] as usize > n {
        return Err(Error::InvalidOffsets {
            segment: 0,
            reason: format!("offsets[0] = {} is past the end of {n} values", offsets[0]),
        });
    }
    let mut longest = 0;
    for (s, w) in offsets.windows(2).enumerate() {
        let reason = if w[1] < w[0] {
            format!("offsets[{s}] = {} > offsets[{}] = {}", w[0], s + 1, w[1])
        } else if w[1] as usize > n {
            format!(
                "offsets[{}] = {} is past the end of {n} values",
                s + 1,
                w[1]
            )
        } else {
            longest = longest.max(u64::from(w[1] - w[0]));
            continue;
        };
        return Err(Error::InvalidOffsets { segment: s, reason });
    }
    Ok(longest)
}

impl Recorder {
    /// Records `op` (sum, prod, min, max, mean, argmin, argmax) over segments of `values` (read
    /// flat): segment `s` is `values[offsets[s]..offsets[s + 1]]` (CSR offsets, one more than
    /// the segments, as CUB's `DeviceSegmentedReduce` and PyTorch's `segment_reduce` with
    /// offsets), checked here: [`Error::InvalidOffsets`] if they decrease or pass the end. The
    /// result has one value per segment; an empty segment gives the operation's identity (0 for
    /// sum, 1 for prod, +inf / -inf for float min / max, the type's largest / smallest integer
    /// for integer min / max, NaN for mean, `u32::MAX` for argmin/argmax, whose indices count
    /// from the segment's start). Every offset, the first and a lone one included, is at most
    /// the number of values. The kernel follows the segments: threads per segment from their
    /// mean length, and segments much longer than the mean by blocks of the values a workgroup
    /// each, so that one long segment among many short ones costs no more than its length.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// use wgpu_reduce::ReduceOp;
    /// let x = ctx.upload(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
    /// let s = ctx.run(|rec| rec.segment_reduce::<f32, f32>(&x, ReduceOp::Sum, &[0, 2, 2, 6]))?;
    /// assert_eq!(s, vec![3.0, 0.0, 18.0]);
    /// # Ok(()) }
    /// ```
    pub fn segment_reduce<T: Element, O: Element>(
        &mut self,
        values: &GpuArray<T>,
        op: ReduceOp,
        offsets: &[u32],
    ) -> Result<GpuArray<O>> {
        let longest = check_offsets(offsets, values.len())?;
        let off = self.ctx().upload(offsets)?;
        let out = self.lease_output::<O>(vec![offsets.len() - 1])?;
        self.record_segments(op, &values.raw(), &off.raw(), Some(longest), &out.raw())?;
        Ok(out)
    }

    /// [`Recorder::segment_reduce`] with offsets already on the GPU (u32, one more than the
    /// segments). They are checked by a small kernel whose flag is read with the results:
    /// [`Submission::wait`](crate::Submission::wait) returns [`Error::InvalidOffsets`] if they
    /// decrease or pass the end (the reduction itself never reads outside the values, whatever
    /// the offsets). Such a recording must be submitted with `submit`.
    pub fn segment_reduce_gpu<T: Element, O: Element>(
        &mut self,
        values: &GpuArray<T>,
        op: ReduceOp,
        offsets: &GpuArray<u32>,
    ) -> Result<GpuArray<O>> {
        let out = self.lease_output::<O>(vec![offsets.len().saturating_sub(1)])?;
        self.record_segments(op, &values.raw(), &offsets.raw(), None, &out.raw())?;
        Ok(out)
    }
}
