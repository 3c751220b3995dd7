//! # wgpu-reduce
//!
//! Portable GPU reductions on [wgpu](https://wgpu.rs) and WGSL: sum, prod, min, max and mean of
//! whole arrays, at memory-bandwidth speed, on Metal (Apple Silicon), Vulkan, DX12 and WebGPU.
//!
//! ```no_run
//! use wgpu_reduce::Context;
//! # fn main() -> wgpu_reduce::Result<()> {
//! let ctx = Context::new()?;                       // WGPU_BACKEND etc. are honoured
//! let x = ctx.upload(&vec![0.5f32; 1 << 20])?;
//! println!("sum = {}", ctx.sum(&x)?);               // blocking one-liner
//!
//! // Many reductions, one submission, one host round trip:
//! let mut rec = ctx.recorder();
//! let (s, lo, hi) = (rec.sum(&x)?, rec.min(&x)?, rec.max(&x)?);
//! let tokens = [rec.read(&s)?, rec.read(&lo)?, rec.read(&hi)?];
//! let results = rec.submit()?.wait()?;
//! for t in &tokens { println!("{}", results.scalar(t)?); }
//! # Ok(()) }
//! ```
//!
//! ## Pieces
//! - [`Context`]: adapter, device, queue, detected [`Capabilities`]; built by the library or on
//!   an application's own device ([`Context::from_wgpu`]).
//! - [`GpuArray`]: a typed array with a shape, uploaded, wrapped around a caller's buffer, or
//!   produced by a reduction (results stay on the GPU until read).
//! - [`Recorder`]: records any number of reductions, each a few passes, into one command encoder,
//!   submitted once ([`Recorder::submit`]) or encoded into the caller's encoder
//!   ([`Recorder::record_into`]).
//! - The buffer pool: temporaries are reused between calls; see [`Context::pool_stats`].
//! - [`kernels`]: the one place where WGSL variants are specialised; every variant is checked by
//!   naga (MSL, SPIR-V, HLSL) in the tests.
//!
//! ## Semantics
//! - **Empty input**: sum is 0, prod is 1; min, max and mean return [`Error::EmptyInput`]
//!   (NumPy raises for min/max; for mean it warns and returns NaN, and an error is clearer).
//! - **Integers** (i32, u32): sum and prod wrap modulo 2^32, as the GPU's 32-bit arithmetic does.
//!   NumPy and PyTorch widen integer sums to 64 bits instead; WGSL has no 64-bit integers, so
//!   sum in f32 with [`Recorder::mean`] or split the input if the true sum may exceed 32 bits.
//! - **Mean** accumulates and returns f32 for every input type (as PyTorch returns a float mean).
//! - **NaN**: min and max return NaN if any element is NaN (as NumPy and PyTorch do).
//! - **Float sums** are accumulated in f32: each thread sums its elements in four vec4
//!   accumulators, then workgroups combine in a tree, then a final pass combines workgroups. The
//!   error is bounded as [`Tuning::f32_sum_error_bound`] states, about `(n / lanes + log2 n + 4) · 2⁻²⁴ · Σ|xᵢ|`, where `lanes` is the
//!   number of vec4 lanes in the first pass (up to `4 · workgroups · workgroup_size`); for random
//!   data it is far smaller. The order is fixed for a given device and tuning, so results are
//!   bit-identical from run to run.

#![warn(missing_docs)]

mod array;
mod context;
mod element;
mod error;
pub mod kernels;
mod ops;
mod pool;
mod recorder;

pub use array::GpuArray;
pub use context::{
    Capabilities, Context, ContextOptions, ContextStats, Subgroups, Tuning, WORKGROUP_SIZES,
};
pub use element::{DType, Element};
pub use error::{Error, Result};
pub use ops::{Axes, ReduceOp, Reduction, MAX_DIMS};
pub use pool::{size_class, PoolStats};
pub use recorder::{ReadToken, Recorder, Results, Submission};

/// Re-export of the wgpu version this crate is built on.
pub use wgpu;

/// Re-export of the `half` crate, whose `f16` and `bf16` are element types here.
pub use half;

/// The README's examples are compiled as doctests, so the API tour cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
