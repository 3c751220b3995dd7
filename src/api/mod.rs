//! Every public method of [`Context`](crate::Context) and [`Recorder`](crate::Recorder): making
//! a context and what it holds (`context.rs`), a recorder's reads and submission
//! (`recorder.rs`), and the operations, recorded or blocking (`reduce.rs`, `scan.rs`,
//! `family.rs`, `prepare.rs`), which hand their work to `record`.

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

mod context;
mod recorder;
