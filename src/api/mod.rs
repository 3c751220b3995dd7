//! The operations users call: [`Recorder`](crate::Recorder) methods that plan (with `plan`),
//! pick kernel variants (with `kernels`) and record dispatches, and the [`Context`](crate::Context)
//! methods that record, submit and wait in one call.

/// A `Recorder` method reducing along axes with `keepdim`, for one operation and result type.
macro_rules! axes_method {
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

mod family;
mod prepare;
mod reduce;
mod scan;
