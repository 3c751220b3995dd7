//! The reduction methods users call: `Recorder::reduce` and its shorthands, which record into
//! a recorder, and the blocking `Context` one-liners.

use crate::array::GpuArray;
use crate::context::Context;
use crate::element::Element;
use crate::error::Result;
use crate::ops::{Axes, ReduceOp, Reduction};
use crate::record::Recorder;

/// A `Recorder` method for var or std along axes, with a correction and `keepdim`.
macro_rules! spread_method {
    ($(#[$doc:meta])* $name:ident, $op:ident) => {
        $(#[$doc])*
        pub fn $name<T: Element>(
            &mut self,
            x: &GpuArray<T>,
            axes: impl Into<Axes>,
            correction: u32,
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
    /// the result type (see [`ReduceOp::allowed_outputs`]: e.g. `f32` or the input type for
    /// f16/bf16 sums, as PyTorch's `dtype=` argument). The result stays on the GPU.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{half::f16, Context, ReduceOp, Reduction};
    /// let ctx = Context::new()?;
    /// let x = ctx.upload_shaped(&vec![f16::from_f32(0.5); 6], &[2, 3])?;
    /// let mut rec = ctx.recorder();
    /// let rows = rec.reduce::<f16, f32>(&x, &Reduction::new(ReduceOp::Sum).axes(-1))?;
    /// let t = rec.read(&rows)?;
    /// assert_eq!(rec.submit()?.wait()?.get(&t)?, vec![1.5, 1.5]);
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
    /// result shape (its own shape is not changed).
    pub fn reduce_to<T: Element, O: Element>(
        &mut self,
        x: &GpuArray<T>,
        red: &Reduction,
        out: &GpuArray<O>,
    ) -> Result<()> {
        self.record_reduction(red, &x.raw(), x.shape(), &out.raw())
    }

    /// Records `op` over all of `x` into `out`, a caller's array of one element whose type is
    /// one of the op's result types.
    pub fn reduce_into<T: Element, O: Element>(
        &mut self,
        op: ReduceOp,
        x: &GpuArray<T>,
        out: &GpuArray<O>,
    ) -> Result<()> {
        self.reduce_to(x, &Reduction::new(op), out)
    }

    /// Records the sum of all elements. The result stays on the GPU as a 0-d array.
    ///
    /// Floats are summed in f32 (pairwise/tree order: see the crate docs for the error bound);
    /// integers wrap modulo 2^32. The sum of an empty array is 0.
    pub fn sum<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.reduce(x, &Reduction::new(ReduceOp::Sum))
    }

    /// Records the product of all elements (1 for an empty array; integers wrap).
    pub fn prod<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.reduce(x, &Reduction::new(ReduceOp::Prod))
    }

    /// Records the minimum (NaN if any element is NaN; [`Error::EmptyInput`](crate::Error::EmptyInput) if empty).
    pub fn min<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.reduce(x, &Reduction::new(ReduceOp::Min))
    }

    /// Records the maximum (NaN if any element is NaN; [`Error::EmptyInput`](crate::Error::EmptyInput) if empty).
    pub fn max<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.reduce(x, &Reduction::new(ReduceOp::Max))
    }

    /// Records the mean, accumulated and returned in f32 ([`Error::EmptyInput`](crate::Error::EmptyInput) if empty).
    pub fn mean<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<f32>> {
        self.reduce(x, &Reduction::new(ReduceOp::Mean))
    }

    /// Records the variance of all elements in f32, dividing by `n - correction`.
    pub fn var<T: Element>(&mut self, x: &GpuArray<T>, correction: u32) -> Result<GpuArray<f32>> {
        self.reduce(x, &Reduction::new(ReduceOp::Var).correction(correction))
    }

    /// Records the standard deviation of all elements in f32 (see [`Recorder::var`]).
    pub fn std<T: Element>(&mut self, x: &GpuArray<T>, correction: u32) -> Result<GpuArray<f32>> {
        self.reduce(x, &Reduction::new(ReduceOp::Std).correction(correction))
    }

    /// Records the flat index of the smallest element (first NaN if any; lowest index on ties).
    pub fn argmin<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<u32>> {
        self.reduce(x, &Reduction::new(ReduceOp::Argmin))
    }

    /// Records the flat index of the largest element (first NaN if any; lowest index on ties).
    pub fn argmax<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<u32>> {
        self.reduce(x, &Reduction::new(ReduceOp::Argmax))
    }

    axes_method! {
        /// Records the sum along `axes` (see [`Axes`]); the result has `x`'s type.
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        /// let mut rec = ctx.recorder();
        /// let cols = rec.sum_axes(&x, 0, false)?;        // shape [3]
        /// let rows = rec.sum_axes(&x, -1, true)?;        // shape [2, 1]
        /// let (tc, tr) = (rec.read(&cols)?, rec.read(&rows)?);
        /// let res = rec.submit()?.wait()?;
        /// assert_eq!(res.get(&tc)?, vec![5.0, 7.0, 9.0]);
        /// assert_eq!(res.get(&tr)?, vec![6.0, 15.0]);
        /// # Ok(()) }
        /// ```
        sum_axes, Sum, T
    }
    axes_method! {
        /// Records the product along `axes` (integers wrap).
        prod_axes, Prod, T
    }
    axes_method! {
        /// Records the minimum along `axes` (NaN where a reduced element is NaN).
        min_axes, Min, T
    }
    axes_method! {
        /// Records the maximum along `axes` (NaN where a reduced element is NaN).
        max_axes, Max, T
    }
    axes_method! {
        /// Records the mean along `axes`, accumulated and returned in f32.
        mean_axes, Mean, f32
    }

    spread_method! {
        /// Records the variance along `axes` in f32, dividing by `n - correction`.
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[1.0f32, 3.0, 10.0, 14.0], &[2, 2])?;
        /// let mut rec = ctx.recorder();
        /// let v = rec.var_axes(&x, 1, 1, false)?;
        /// let t = rec.read(&v)?;
        /// assert_eq!(rec.submit()?.wait()?.get(&t)?, vec![2.0, 8.0]);
        /// # Ok(()) }
        /// ```
        var_axes, Var
    }
    spread_method! {
        /// Records the standard deviation along `axes` in f32 (the square root of
        /// [`Recorder::var_axes`]).
        std_axes, Std
    }

    /// Records the index of the minimum along one `axis` (u32 indices along that axis).
    pub fn argmin_axis<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        axis: i32,
        keepdim: bool,
    ) -> Result<GpuArray<u32>> {
        let red = Reduction::new(ReduceOp::Argmin).axes(axis).keepdim(keepdim);
        self.reduce(x, &red)
    }

    /// Records the index of the maximum along one `axis`.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload_shaped(&[1.0f32, 9.0, 9.0, 7.0, 0.0, 2.0], &[2, 3])?;
    /// let mut rec = ctx.recorder();
    /// let i = rec.argmax_axis(&x, 1, false)?;
    /// let t = rec.read(&i)?;
    /// assert_eq!(rec.submit()?.wait()?.get(&t)?, vec![1, 0]); // ties: lowest index
    /// # Ok(()) }
    /// ```
    pub fn argmax_axis<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        axis: i32,
        keepdim: bool,
    ) -> Result<GpuArray<u32>> {
        let red = Reduction::new(ReduceOp::Argmax).axes(axis).keepdim(keepdim);
        self.reduce(x, &red)
    }
}

/// A blocking `Context` method reducing along axes, for one operation and result type.
macro_rules! context_axes_method {
    ($(#[$doc:meta])* $name:ident, $op:ident, $out:ty) => {
        $(#[$doc])*
        pub fn $name<T: Element>(&self, x: &GpuArray<T>, axes: impl Into<Axes>) -> Result<Vec<$out>> {
            self.reduce_read(x, &Reduction::new(ReduceOp::$op).axes(axes))
        }
    };
}

/// A blocking `Context` method for var or std along axes, with a correction.
macro_rules! context_spread_method {
    ($(#[$doc:meta])* $name:ident, $op:ident) => {
        $(#[$doc])*
        pub fn $name<T: Element>(
            &self,
            x: &GpuArray<T>,
            axes: impl Into<Axes>,
            correction: u32,
        ) -> Result<Vec<f32>> {
            let red = Reduction::new(ReduceOp::$op).axes(axes).correction(correction);
            self.reduce_read(x, &red)
        }
    };
}

impl Context {
    /// Records `red`, submits, waits and reads the result (one submission, one readback).
    fn reduce_read<T: Element, O: Element>(
        &self,
        x: &GpuArray<T>,
        red: &Reduction,
    ) -> Result<Vec<O>> {
        let mut rec = self.reading_recorder();
        let out = rec.reduce::<T, O>(x, red)?;
        let token = rec.read(&out)?;
        rec.submit()?.wait()?.get(&token)
    }

    context_axes_method! {
        /// Sum along `axes`, blocking; the values of the result, row-major. See
        /// [`Recorder::sum_axes`] to keep the result on the GPU.
        ///
        /// ```no_run
        /// # fn main() -> wgpu_reduce::Result<()> {
        /// # let ctx = wgpu_reduce::Context::new()?;
        /// let x = ctx.upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
        /// assert_eq!(ctx.sum_axes(&x, 0)?, vec![5.0, 7.0, 9.0]);
        /// assert_eq!(ctx.sum_axes(&x, -1)?, vec![6.0, 15.0]);
        /// # Ok(()) }
        /// ```
        sum_axes, Sum, T
    }
    context_axes_method! {
        /// Product along `axes`, blocking (integers wrap).
        prod_axes, Prod, T
    }
    context_axes_method! {
        /// Minimum along `axes`, blocking (NaN where a reduced element is NaN).
        min_axes, Min, T
    }
    context_axes_method! {
        /// Maximum along `axes`, blocking (NaN where a reduced element is NaN).
        max_axes, Max, T
    }
    context_axes_method! {
        /// Mean along `axes` in f32, blocking.
        mean_axes, Mean, f32
    }

    context_spread_method! {
        /// Variance along `axes` in f32 with `correction`, blocking.
        var_axes, Var
    }
    context_spread_method! {
        /// Standard deviation along `axes` in f32 with `correction`, blocking.
        std_axes, Std
    }

    /// Index of the minimum along one `axis`, blocking.
    pub fn argmin_axis<T: Element>(&self, x: &GpuArray<T>, axis: i32) -> Result<Vec<u32>> {
        self.reduce_read(x, &Reduction::new(ReduceOp::Argmin).axes(axis))
    }

    /// Index of the maximum along one `axis`, blocking.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload_shaped(&[1.0f32, 9.0, 9.0, 7.0, 0.0, 2.0], &[2, 3])?;
    /// assert_eq!(ctx.argmax_axis(&x, 1)?, vec![1, 0]);
    /// # Ok(()) }
    /// ```
    pub fn argmax_axis<T: Element>(&self, x: &GpuArray<T>, axis: i32) -> Result<Vec<u32>> {
        self.reduce_read(x, &Reduction::new(ReduceOp::Argmax).axes(axis))
    }
}

impl Context {
    fn reduce_scalar<T: Element, O: Element>(&self, red: &Reduction, x: &GpuArray<T>) -> Result<O> {
        let mut rec = self.reading_recorder();
        let out = rec.reduce::<T, O>(x, red)?;
        let token = rec.read(&out)?;
        rec.submit()?.wait()?.scalar(&token)
    }

    /// Records and submits `red` over `x` (one submission) and returns the result array, which
    /// stays on the GPU; read it with [`Context::read`]. See [`Recorder::reduce`].
    pub fn reduce<T: Element, O: Element>(
        &self,
        x: &GpuArray<T>,
        red: &Reduction,
    ) -> Result<GpuArray<O>> {
        let mut rec = self.recorder();
        let out = rec.reduce::<T, O>(x, red)?;
        let _ = rec.submit()?;
        Ok(out)
    }

    /// Sum of all elements, blocking (one submission, one readback). See [`Recorder::sum`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[1.5f32, 2.0, -0.5])?;
    /// assert_eq!(ctx.sum(&x)?, 3.0);
    /// # Ok(()) }
    /// ```
    pub fn sum<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Sum), x)
    }

    /// Product of all elements, blocking. See [`Recorder::prod`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[2i32, -3, 4])?;
    /// assert_eq!(ctx.prod(&x)?, -24);
    /// # Ok(()) }
    /// ```
    pub fn prod<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Prod), x)
    }

    /// Minimum, blocking. See [`Recorder::min`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[5u32, 1, 9])?;
    /// assert_eq!(ctx.min(&x)?, 1);
    /// # Ok(()) }
    /// ```
    pub fn min<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Min), x)
    }

    /// Maximum, blocking. See [`Recorder::max`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[1.0f32, f32::NAN, 3.0])?;
    /// assert!(ctx.max(&x)?.is_nan()); // NaN propagates
    /// # Ok(()) }
    /// ```
    pub fn max<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Max), x)
    }

    /// Mean in f32, blocking. See [`Recorder::mean`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[1i32, 2, 4])?;
    /// assert_eq!(ctx.mean(&x)?, 7.0 / 3.0);
    /// # Ok(()) }
    /// ```
    pub fn mean<T: Element>(&self, x: &GpuArray<T>) -> Result<f32> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Mean), x)
    }

    /// Variance in f32 with `correction`, blocking. See [`Recorder::var`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[1.0f32, 2.0, 3.0, 4.0])?;
    /// assert_eq!(ctx.var(&x, 1)?, 5.0 / 3.0); // PyTorch's default
    /// assert_eq!(ctx.var(&x, 0)?, 1.25);       // NumPy's ddof = 0
    /// # Ok(()) }
    /// ```
    pub fn var<T: Element>(&self, x: &GpuArray<T>, correction: u32) -> Result<f32> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Var).correction(correction), x)
    }

    /// Standard deviation in f32 with `correction`, blocking. See [`Recorder::std`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[2.0f32, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])?;
    /// assert_eq!(ctx.std(&x, 0)?, 2.0);
    /// # Ok(()) }
    /// ```
    pub fn std<T: Element>(&self, x: &GpuArray<T>, correction: u32) -> Result<f32> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Std).correction(correction), x)
    }

    /// Flat index of the minimum, blocking. See [`Recorder::argmin`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload_shaped(&[4.0f32, 1.0, 7.0, 1.0], &[2, 2])?;
    /// assert_eq!(ctx.argmin(&x)?, 1); // flat index; ties go to the lowest
    /// # Ok(()) }
    /// ```
    pub fn argmin<T: Element>(&self, x: &GpuArray<T>) -> Result<u32> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Argmin), x)
    }

    /// Flat index of the maximum, blocking. See [`Recorder::argmax`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # use wgpu_reduce::half;
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[half::f16::from_f32(0.5), half::f16::from_f32(2.0)])?;
    /// assert_eq!(ctx.argmax(&x)?, 1);
    /// # Ok(()) }
    /// ```
    pub fn argmax<T: Element>(&self, x: &GpuArray<T>) -> Result<u32> {
        self.reduce_scalar(&Reduction::new(ReduceOp::Argmax), x)
    }
}
