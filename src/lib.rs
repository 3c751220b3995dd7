//! # wgpu-reduce
//!
//! Portable GPU reductions, prefix scans and sorts on [wgpu](https://wgpu.rs) and WGSL: sum, prod,
//! min, max, mean, var, std, argmin and argmax, of whole arrays or along any axes
//! ([`Reduction`], [`Axes`]), and inclusive/exclusive add, min and max scans along the last axis
//! ([`Scan`]), over f32, i32, u32, f16 and bf16, on Metal (Apple Silicon), Vulkan, DX12 and
//! WebGPU.
//!
//! ```no_run
//! use wgpu_reduce::Context;
//! # fn main() -> wgpu_reduce::Result<()> {
//! let ctx = Context::new()?;                       // WGPU_BACKEND etc. are honoured
//! let x = ctx.upload(&vec![0.5f32; 1 << 20])?;
//! println!("sum = {:?}", ctx.run(|rec| rec.sum(&x, .., false))?); // one step: [524288.0]
//!
//! // Many reductions, one submission, one host round trip:
//! let mut rec = ctx.recorder();
//! let (s, lo, hi) = (rec.sum(&x, .., false)?, rec.min(&x, .., false)?, rec.max(&x, .., false)?);
//! let tokens = [rec.read(&s)?, rec.read(&lo)?, rec.read(&hi)?];
//! let results = rec.submit()?.wait()?;
//! for t in &tokens { println!("{}", results.scalar(t)?); }
//! # Ok(()) }
//! ```
//!
//! ## One rule for every name
//! - **[`Recorder`] methods record**: each records an operation and returns its result as a
//!   [`GpuArray`] that stays on the GPU (or writes a caller's array: the `_into` forms). Nothing
//!   runs until [`Recorder::submit`] or [`Recorder::record_into`].
//! - **[`Context`] methods make, move and read arrays** ([`Context::upload`],
//!   [`Context::zeros`], [`Context::read`]) and **run a recording in one step**:
//!   [`Context::run`] records with a new recorder, submits, waits and reads back what the
//!   closure returns ([`Readback`]); [`Context::run_async`] is the same without blocking.
//! - **Every reduction has one signature shape**: the array, the operation's own parameter if
//!   it has one (`var`'s correction, `norm`'s order), the axes ([`Axes`]: an axis, a list, or
//!   `..` for all) and `keepdim`. Its result type is fixed at compile time (`mean` is f32,
//!   `argmax` u32, `sum` the input type). [`Recorder::reduce`] takes a [`Reduction`] instead,
//!   for an operation chosen at run time or a result type the caller chooses (f32 sums of
//!   f16); that type is checked when recorded ([`Error::UnsupportedOutput`]).
//! - **Blocking calls exist only where blocking is possible**: on wasm32 (the web)
//!   [`Context::new`], [`Context::run`], [`Context::read`] and [`Submission::wait`] are not
//!   compiled, so calling one is a compile error; their async forms are
//!   [`Context::new_async`], [`Context::run_async`], [`Context::read_async`] and
//!   [`Submission::wait_async`].
//!
//! ## Pieces
//! - [`Context`]: adapter, device, queue, detected [`Capabilities`]; built by the library or on
//!   an application's own device ([`Context::from_wgpu`]).
//! - [`GpuArray`]: a typed array with a shape, uploaded, wrapped around a caller's buffer, or
//!   produced by a reduction (results stay on the GPU until read).
//! - [`Recorder`]: records any number of reductions, each a few passes, into one command encoder,
//!   submitted once ([`Recorder::submit`]) or encoded into the caller's encoder
//!   ([`Recorder::record_into`]).
//! - Scans ([`Recorder::scan`], [`Recorder::cumsum`]): reduce-then-scan or
//!   single-pass decoupled look-back with fallback ([`ScanAlgorithm`]), recorded like any other
//!   operation; [`ops::scan`] describes both algorithms, [`ops::reduce`] the reductions.
//! - Sorts ([`Recorder::sort`], [`Recorder::sort_pairs`], [`Recorder::argsort`]): a stable
//!   radix sort of every element type whose passes never wait on one another; top-k and the
//!   k-th key of rows ([`Recorder::topk`], [`Recorder::kthvalue`]) by a radix select that
//!   needs no full sort; [`ops::sort`] describes both.
//! - The buffer pool: temporaries are reused between calls; see [`Context::pool_stats`].
//! - [`kernels`]: the kernel variants, their WGSL (a prelude and whole files of `shaders/`) and
//!   their typed parameters, for inspection; with the `validate` feature, naga's checks and the
//!   MSL a Mac receives. Every variant is checked by naga (MSL, SPIR-V, HLSL) in the tests.
//! - ARCHITECTURE.md (in the repository) shows the layers and the path of one call.
//!
//! ## Semantics
//! - **Axes**: one, several or all ([`Axes::All`]); negative axes count from the end; an empty
//!   list reduces nothing (NumPy's `axis=()`); arrays of up to [`MAX_DIMS`] (8) dimensions;
//!   `keepdim` keeps reduced axes as size 1. Invalid axes are typed errors
//!   ([`Error::AxisOutOfRange`], [`Error::DuplicateAxis`], [`Error::TooManyDims`]).
//! - **argmin / argmax** take one axis (u32 index along it) or the whole array (flat index);
//!   several axes are [`Error::UnsupportedAxes`], as in PyTorch. Ties go to the lowest index;
//!   if there is a NaN, the first NaN's index (PyTorch's rule).
//! - **Empty reductions**: sum is 0, prod is 1; the others return [`Error::EmptyInput`] (NumPy
//!   and PyTorch raise for min/max/argmin/argmax; for mean/var they return NaN with a warning,
//!   and an error is clearer). A result with zero elements is simply empty.
//! - **Integers** (i32, u32): sum and prod wrap modulo 2^32, as the GPU's 32-bit arithmetic does.
//!   NumPy and PyTorch widen integer sums to 64 bits instead; WGSL has no 64-bit integers, so
//!   take the mean (f32) or split the input if the true sum may exceed 32 bits.
//! - **Result types** ([`ReduceOp::allowed_outputs`]): sum/prod/min/max return the input type;
//!   mean/var/std return f32 (the input type for f16/bf16, as PyTorch); argmin/argmax return u32.
//!   For f16/bf16 input every float reduction may return f32 instead (PyTorch's `dtype=`),
//!   chosen by the result type of [`Recorder::reduce`].
//! - **f16 and bf16** are stored packed, two to a u32 word, and need no device feature
//!   (`SHADER_F16` is not required). bf16 widens by a shift; f16 by WGSL's `unpack2x16float` (a
//!   hardware conversion) on Vulkan, Metal, DX12 and WebGPU, and in integer arithmetic on GL,
//!   where that builtin's downlevel capability may be missing
//!   ([`kernels::F16Widening`]); both are exact, subnormals included. They accumulate in f32;
//!   16-bit results are rounded to nearest even.
//! - **var / std**: Welford updates per thread, combined across threads and workgroups with Chan
//!   et al.'s parallel formula, in f32: stable for data with a large mean and a small spread
//!   (tested where `E[x²] - E[x]²` in f32 is off by orders of magnitude). The divisor is
//!   `n - correction` (default 1, PyTorch's; NumPy's `ddof = 0` is `correction(0)`); an
//!   infinite element gives NaN.
//! - **NaN**: min and max return NaN if any element is NaN (as NumPy and PyTorch), on both the
//!   subgroup and the shared-memory paths (a plain subgroup min/max may drop NaNs; ours tests
//!   for them).
//! - **Signed zeros and subnormals**: min/max/argmin/argmax compare order-preserving integer
//!   keys of the float bits, so f32 subnormals are compared exactly on every device. For
//!   argmin/argmax -0.0 ties with +0.0 (the lower index wins); min/max of zeros return a zero of
//!   either sign (their per-thread keys order -0.0 below +0.0). Sums, means and variances follow the device's float mode: NVIDIA's Vulkan driver
//!   (and Metal by default) flush f32 subnormals to zero in arithmetic, lavapipe keeps them.
//!   f16 subnormals widen to normal f32 values and are always exact. The sum of negative zeros
//!   is +0.0 (the identity is +0.0).
//! - **Float sums** are accumulated in f32: each thread sums its elements in several independent
//!   accumulators, then workgroups combine in a tree, then later passes combine workgroups. The
//!   error is bounded as [`Tuning::f32_sum_error_bound`] states, about
//!   `(n / lanes + log2 n + 4) · 2⁻²⁴ · Σ|xᵢ|`. Measured on 2^24 uniform [0, 1) f32 values
//!   (tests/accuracy.rs, lavapipe): relative error 1.8e-8 with the shared-memory step and
//!   4.2e-8 with subgroups, against 3.0e-5 for a sequential f32 loop over the same data. No
//!   compensated (Kahan–Babuška–Neumaier) mode is offered: at these errors it would buy little,
//!   and it was not built or measured.
//! - **Determinism**: no float atomics anywhere; the order of combination depends only on the
//!   shape and the [`Tuning`], so the same input on the same device gives bit-identical results
//!   on every run (tests/accuracy.rs checks every float reduction and layout).

// On the web wgpu's objects are single-threaded, so a Context is not Send + Sync there.
#![cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]
#![warn(missing_docs)]
// docs.rs marks the calls that exist only off the web.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The layers, lowest first: a module imports only from its own layer and the ones above it in
// this list, by module path, never through the re-exports below (tests/layers.rs checks it).
// Element types: DType, Element.
mod element;
// The one Error enum (it names element types).
mod error;
// The vocabulary as plain data: operations, axes, reductions, maps, scans, what to prepare.
pub mod ops;
// Kernel variants, their WGSL, typed parameters, the pipeline cache.
pub mod kernels;
// Temporary buffers reused by size class.
mod pool;
// Pure planning: the kernel settings (Tuning) and shapes in, passes out.
mod plan;
// Adapter, device, options, capabilities; the tuning resolved for the device.
mod context;
// GpuArray.
mod array;
// The Recorder: dispatches, encoding, one submission, results.
mod record;
// The methods users call.
mod api;

pub use api::Compacted;
pub use array::GpuArray;
pub use context::{
    Capabilities, Context, ContextOptions, ContextStats, DeviceRequirements, Subgroups, Testing,
    MAPPED_RESULT_MAX_BYTES,
};
pub use element::{DType, Element};
pub use error::{Error, Result, WgpuError};
pub use kernels::WORKGROUP_SIZES;
pub use ops::{
    Axes, Cmp, Map, Prepare, ReduceOp, Reduction, Scan, ScanAlgorithm, ScanOp, Sort, TopK, MAX_DIMS,
};
pub use plan::tuning::Tuning;
pub use pool::{size_class, PoolStats};
pub use record::{ReadToken, Readback, Recorder, Results, Submission};

/// Re-export of the wgpu version this crate is built on.
pub use wgpu;

/// Re-export of the `half` crate, whose `f16` and `bf16` are element types here.
pub use half;

/// The README's examples are compiled as doctests, so the API tour cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
