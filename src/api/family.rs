//! The reductions beyond the basic nine: NaN-ignoring forms, any/all/count, logsumexp, aminmax,
//! vector norms and dot products. Each takes the axes to reduce (an axis, a list, or
//! [`Axes::All`] for the whole array) and `keepdim`, and records like any other reduction: the
//! result stays on the GPU until read.

use crate::array::GpuArray;
use crate::context::Context;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::ops::{Axes, ReduceOp, Reduction};
use crate::record::Recorder;

impl Recorder {
    axes_method! {
        /// Records the sum of the elements that are not NaN along `axes` (NumPy's `nansum`:
        /// 0 where all are NaN); the result has `x`'s type.
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// use wgpu_reduce::Axes;
        /// let x = ctx.upload(&[1.0f32, f32::NAN, 2.5])?;
        /// let mut rec = ctx.recorder();
        /// let s = rec.nansum(&x, Axes::All, false)?;
        /// let t = rec.read(&s)?;
        /// assert_eq!(rec.submit()?.wait()?.get(&t)?, vec![3.5]);
        /// # Ok(()) }
        /// ```
        nansum, NanSum, T
    }
    axes_method! {
        /// Records the mean of the elements that are not NaN along `axes`, in f32 (NaN where
        /// all are NaN).
        nanmean, NanMean, f32
    }
    axes_method! {
        /// Records the minimum ignoring NaN along `axes` (NaN where all are NaN).
        nanmin, NanMin, T
    }
    axes_method! {
        /// Records the maximum ignoring NaN along `axes` (NaN where all are NaN).
        nanmax, NanMax, T
    }
    axes_method! {
        /// Records the index of the minimum ignoring NaN, along one axis or over the whole
        /// array (flat index); `u32::MAX` where all are NaN.
        nanargmin, NanArgmin, u32
    }
    axes_method! {
        /// Records the index of the maximum ignoring NaN; see [`Recorder::nanargmin`].
        nanargmax, NanArgmax, u32
    }
    axes_method! {
        /// Records 1 where any element along `axes` is non-zero, else 0 (NaN is non-zero, -0.0
        /// is zero).
        any, Any, u32
    }
    axes_method! {
        /// Records 1 where every element along `axes` is non-zero, else 0 (1 for none).
        all, All, u32
    }
    axes_method! {
        /// Records the number of non-zero elements along `axes`.
        count_nonzero, CountNonzero, u32
    }
    axes_method! {
        /// Records `log(sum(exp(x)))` along `axes` in f32, in one pass and without overflow
        /// (see [`ReduceOp::LogSumExp`]).
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[1e4f32, 1e4, 0.0, f32::NEG_INFINITY], &[2, 2])?;
        /// let mut rec = ctx.recorder();
        /// let l = rec.logsumexp(&x, -1, false)?;
        /// let t = rec.read(&l)?;
        /// let v = rec.submit()?.wait()?.get(&t)?;
        /// assert!((v[0] - (1e4 + 2f32.ln())).abs() < 1e-2 && v[1] == 0.0);
        /// # Ok(()) }
        /// ```
        logsumexp, LogSumExp, f32
    }
    axes_method! {
        /// Records the minimum and the maximum along `axes` in one pass: the result's shape
        /// gains a last axis of length 2 (`[..., 0]` minimum, `[..., 1]` maximum).
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[3i32, -1, 7, 0, 5, 2], &[2, 3])?;
        /// let mut rec = ctx.recorder();
        /// let m = rec.aminmax(&x, 1, false)?; // shape [2, 2]
        /// let t = rec.read(&m)?;
        /// assert_eq!(rec.submit()?.wait()?.get(&t)?, vec![-1, 7, 0, 5]);
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
    /// use wgpu_reduce::Axes;
    /// let x = ctx.upload(&[3e30f32, 4e30])?;
    /// let mut rec = ctx.recorder();
    /// let n = rec.norm(&x, 2.0, Axes::All, false)?;
    /// let t = rec.read(&n)?;
    /// assert_eq!(rec.submit()?.wait()?.get(&t)?, vec![5e30]);
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

    /// Records the dot product of `a` and `b` (one shape and type) over all elements: floats
    /// accumulate in f32, integers wrap. Arrays of different shapes or types are
    /// [`Error::InputsDiffer`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let a = ctx.upload(&[1.0f32, 2.0, 3.0])?;
    /// let b = ctx.upload(&[4.0f32, -5.0, 6.0])?;
    /// let mut rec = ctx.recorder();
    /// let d = rec.dot(&a, &b)?;
    /// let t = rec.read(&d)?;
    /// assert_eq!(rec.submit()?.wait()?.get(&t)?, vec![12.0]);
    /// # Ok(()) }
    /// ```
    pub fn dot<T: Element>(&mut self, a: &GpuArray<T>, b: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.dot_axes(a, b, Axes::All, false)
    }

    /// Records `sum(a * b)` along `axes` (e.g. row-wise dot products of two matrices with
    /// `axes = -1`).
    pub fn dot_axes<T: Element>(
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
    /// let mut rec = ctx.recorder();
    /// let s = rec.segment_reduce::<f32, f32>(ReduceOp::Sum, &x, &[0, 2, 2, 6])?;
    /// let t = rec.read(&s)?;
    /// assert_eq!(rec.submit()?.wait()?.get(&t)?, vec![3.0, 0.0, 18.0]);
    /// # Ok(()) }
    /// ```
    pub fn segment_reduce<T: Element, O: Element>(
        &mut self,
        op: ReduceOp,
        values: &GpuArray<T>,
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
        op: ReduceOp,
        values: &GpuArray<T>,
        offsets: &GpuArray<u32>,
    ) -> Result<GpuArray<O>> {
        let out = self.lease_output::<O>(vec![offsets.len().saturating_sub(1)])?;
        self.record_segments(op, &values.raw(), &offsets.raw(), None, &out.raw())?;
        Ok(out)
    }
}

impl Context {
    /// Records `red` over `x`, submits, waits and reads the values.
    fn family_read<T: Element, O: Element>(
        &self,
        x: &GpuArray<T>,
        red: Reduction,
    ) -> Result<Vec<O>> {
        let mut rec = self.reading_recorder();
        let out = rec.reduce::<T, O>(x, &red)?;
        let token = rec.read(&out)?;
        rec.submit()?.wait()?.get(&token)
    }

    /// Dot product of `a` and `b`, blocking (one submission, one readback). See
    /// [`Recorder::dot`].
    pub fn dot<T: Element>(&self, a: &GpuArray<T>, b: &GpuArray<T>) -> Result<T> {
        let mut rec = self.reading_recorder();
        let out = rec.dot(a, b)?;
        let token = rec.read(&out)?;
        rec.submit()?.wait()?.scalar(&token)
    }

    /// Vector norm of order `ord` of the whole array, blocking. See [`Recorder::norm`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[3.0f32, -4.0])?;
    /// assert_eq!(ctx.norm(&x, 2.0)?, 5.0);
    /// assert_eq!(ctx.norm(&x, f32::INFINITY)?, 4.0);
    /// # Ok(()) }
    /// ```
    pub fn norm<T: Element>(&self, x: &GpuArray<T>, ord: f32) -> Result<f32> {
        Ok(self.family_read::<T, f32>(x, Reduction::norm(ord)?)?[0])
    }

    /// `log(sum(exp(x)))` of the whole array, blocking. See [`Recorder::logsumexp`].
    pub fn logsumexp<T: Element>(&self, x: &GpuArray<T>) -> Result<f32> {
        Ok(self.family_read::<T, f32>(x, Reduction::new(ReduceOp::LogSumExp))?[0])
    }

    /// Whether any element is non-zero, blocking. See [`Recorder::any`].
    pub fn any<T: Element>(&self, x: &GpuArray<T>) -> Result<bool> {
        Ok(self.family_read::<T, u32>(x, Reduction::new(ReduceOp::Any))?[0] != 0)
    }

    /// Whether every element is non-zero, blocking. See [`Recorder::all`].
    pub fn all<T: Element>(&self, x: &GpuArray<T>) -> Result<bool> {
        Ok(self.family_read::<T, u32>(x, Reduction::new(ReduceOp::All))?[0] != 0)
    }

    /// Number of non-zero elements, blocking. See [`Recorder::count_nonzero`].
    pub fn count_nonzero<T: Element>(&self, x: &GpuArray<T>) -> Result<u32> {
        Ok(self.family_read::<T, u32>(x, Reduction::new(ReduceOp::CountNonzero))?[0])
    }

    /// Sum ignoring NaN, blocking. See [`Recorder::nansum`].
    pub fn nansum<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        Ok(self.family_read::<T, T>(x, Reduction::new(ReduceOp::NanSum))?[0])
    }

    /// Mean ignoring NaN in f32, blocking. See [`Recorder::nanmean`].
    pub fn nanmean<T: Element>(&self, x: &GpuArray<T>) -> Result<f32> {
        Ok(self.family_read::<T, f32>(x, Reduction::new(ReduceOp::NanMean))?[0])
    }

    /// Minimum and maximum in one pass, blocking. See [`Recorder::aminmax`].
    pub fn aminmax<T: Element>(&self, x: &GpuArray<T>) -> Result<(T, T)> {
        let v = self.family_read::<T, T>(x, Reduction::new(ReduceOp::AMinMax))?;
        Ok((v[0], v[1]))
    }
}
