//! Comparisons of each element with a value: [`Cmp`], the operator of
//! [`Recorder::compare`](crate::Recorder::compare), whose u32 mask (1 where the comparison
//! holds, else 0) feeds [`Recorder::compact`](crate::Recorder::compact) and
//! [`Recorder::partition`](crate::Recorder::partition): `x[x > 0]` is a compare and a compact in
//! one recording.
//!
//! Floats (f32, f16, bf16) compare as IEEE values: -0.0 equals +0.0, and NaN compares unequal to
//! everything (every comparison with it is false but [`Cmp::Ne`]), as in NumPy and PyTorch.
//! Integers compare as their type (i32 signed, u32 unsigned). On GPUs that flush subnormal
//! floats to zero, a subnormal element compares as zero.
//!
//! ```no_run
//! # fn main() -> wgpu_reduce::Result<()> {
//! use wgpu_reduce::{Cmp, Context};
//! let ctx = Context::new()?;
//! let x = ctx.upload(&[1.5f32, -2.0, f32::NAN, 7.0])?;
//! let positive = ctx.run(|rec| {
//!     let mask = rec.compare(&x, Cmp::Gt, 0.0)?;
//!     rec.compact(&x, &mask)
//! })?;
//! assert_eq!(positive, vec![1.5, 7.0]);
//! # Ok(()) }
//! ```

/// How [`Recorder::compare`](crate::Recorder::compare) compares each element `x` with the
/// value `v`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `x < v`
    Lt,
    /// `x <= v`
    Le,
    /// `x > v`
    Gt,
    /// `x >= v`
    Ge,
    /// `x == v`
    Eq,
    /// `x != v` (true for NaN)
    Ne,
}
