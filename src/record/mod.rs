//! The command recorder: many operations (and their passes) into one command encoder, one
//! submission, results read back in one host round trip.
//!
//! Recording is cheap and touches no GPU queue: each operation appends dispatches (pipeline,
//! buffers, a small uniform of parameters) to a list. [`Recorder::submit`] then writes every
//! uniform into one buffer, encodes all dispatches into one compute pass and the readback copies
//! after it, and submits once. [`Recorder::record_into`] encodes into a caller's encoder instead.

use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use crate::array::{padded_bytes, GpuArray, RawArray, Storage};
use crate::context::Context;
use crate::element::{DType, Element};
use crate::error::{Error, Result};
use crate::kernels::params::{FillParams, KernelParams};
use crate::kernels::Kernel;
use crate::pool::PooledBuffer;

mod compact;
pub(crate) mod encode;
mod reduce;
mod results;
mod scan;
mod segments;
mod select;
mod sort;
mod submission;

pub(crate) use compact::{Keep, Kept};
pub use results::{ReadToken, Readback, Results};
pub(crate) use select::Taken;
pub(crate) use sort::{SortValues, Take};
pub use submission::Submission;

pub(crate) static NEXT_RECORDING: AtomicU64 = AtomicU64::new(1);

pub(crate) struct Dispatch {
    pipeline: wgpu::ComputePipeline,
    src: RawArray,
    /// The byte range of `src` bound (bindings 0 and 1).
    src_window: Range<u64>,
    dst: RawArray,
    /// The byte range of `dst` bound (binding 2).
    dst_window: Range<u64>,
    /// Bound at binding 4 (look-back status, or a one-pass reduction's clean states), whole
    /// unless `aux_window` names a byte range of it.
    aux: Option<RawArray>,
    aux_window: Option<Range<u64>>,
    /// A downsweep's tile totals, bound read-only at binding 5, whole.
    carries: Option<RawArray>,
    /// A dot product's second input or a segmented reduction's offsets, with the byte range
    /// bound at binding 0 (in place of the whole-array kernel's vec4 view of `src`).
    second: Option<(RawArray, Range<u64>)>,
    params: [u32; 16],
    /// Workgroups along x, y and z.
    grid: (u32, u32, u32),
}

/// What a flag read with the results checks: its value, unless `u32::MAX`, names the first
/// offence.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Check {
    /// A segmented reduction's offsets ([`Error::InvalidOffsets`]: the first invalid segment).
    Offsets,
    /// An operation's elements ([`Error::InvalidValue`]: the lowest index of one not allowed).
    Values {
        /// The operation.
        op: &'static str,
        /// What is allowed.
        allowed: &'static str,
    },
}

impl Check {
    /// The error of a flag that is not `u32::MAX`.
    pub(crate) fn error(self, flag: u32) -> Error {
        match self {
            Check::Offsets => Error::InvalidOffsets {
                segment: flag as usize,
                reason: "the segment ends before it starts, or past the end of the values \
                         (found by the check of offsets on the GPU)"
                    .into(),
            },
            Check::Values { op, allowed } => Error::InvalidValue {
                op,
                index: flag as usize,
                allowed,
            },
        }
    }
}

pub(crate) struct Read {
    pub(crate) src: RawArray,
    pub(crate) offset: u64,
    /// Nothing else can use the array while it is read (a one-step call's own result, or an
    /// array the caller gave up): its buffer may be mapped in place of a copy.
    pub(crate) sole: bool,
}

/// Records operations for one submission. Made by [`Context::recorder`].
///
/// ```no_run
/// # fn main() -> wgpu_reduce::Result<()> {
/// # let ctx = wgpu_reduce::Context::new()?;
/// let x = ctx.upload(&[3.0f32, 1.0, 2.0])?;
/// let mut rec = ctx.recorder();
/// let s = rec.sum(&x, .., false)?;      // stays on the GPU
/// let m = rec.max(&x, .., false)?;
/// let (ts, tm) = (rec.read(&s)?, rec.read(&m)?);
/// let results = rec.submit()?.wait()?; // one submission, one round trip
/// assert_eq!(results.scalar(&ts)?, 6.0);
/// assert_eq!(results.scalar(&tm)?, 3.0);
/// # Ok(()) }
/// ```
pub struct Recorder {
    pub(crate) ctx: Context,
    pub(crate) id: u64,
    pub(crate) dispatches: Vec<Dispatch>,
    pub(crate) reads: Vec<Read>,
    pub(crate) read_bytes: u64,
    pub(crate) timestamps: bool,
    /// Where in the results the flags of checks on the GPU are, and what each checks (see
    /// `Submission::checks`).
    pub(crate) checks: Vec<(u64, Check)>,
    /// Outputs of at most this many bytes are made with `MAP_READ` (0: none).
    pub(crate) mapped_outputs: u64,
    /// Operations recorded in the context's clean states (see `Inner::clean_states`).
    pub(crate) clean_states: usize,
}

impl Context {
    /// A recorder for a one-step call (`Context::run`), which reads its results and drops them: results of up to
    /// [`Context::mapped_result_bytes`] bytes are made in memory the CPU maps, so the read
    /// copies nothing (see [`ContextOptions::mapped_results`](crate::ContextOptions::mapped_results)).
    pub(crate) fn reading_recorder(&self) -> Recorder {
        let mut rec = self.recorder();
        rec.mapped_outputs = self.mapped_result_bytes();
        rec
    }

    fn lease(&self, bytes: u64, usage: wgpu::BufferUsages) -> Result<PooledBuffer> {
        let buf = self.inner.pool.acquire(
            &self.inner.device,
            bytes,
            usage,
            self.inner.caps.limits.max_buffer_size,
        )?;
        if self.inner.testing.poison_temporaries && usage.contains(wgpu::BufferUsages::COPY_DST) {
            let size = buf.buffer().size() as usize;
            self.inner
                .queue
                .write_buffer(buf.buffer(), 0, &vec![0xFF; size]);
        }
        Ok(buf)
    }
}

const TEMP_USAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_SRC)
    .union(wgpu::BufferUsages::COPY_DST);

impl Recorder {
    pub(crate) fn ctx(&self) -> &Context {
        &self.ctx
    }

    pub(crate) fn check_ctx(&self, a: &RawArray, what: &'static str) -> Result<()> {
        if a.ctx_id == self.ctx.id() {
            Ok(())
        } else {
            Err(Error::WrongContext { what })
        }
    }

    /// A pooled storage array of `len` elements of `dtype`, kept alive by the returned view.
    pub(crate) fn lease_temporary(&mut self, len: usize, dtype: DType) -> Result<RawArray> {
        let buf = self.ctx.lease(padded_bytes(len, dtype), TEMP_USAGE)?;
        Ok(RawArray {
            storage: Arc::new(Storage::Pooled(buf)),
            len,
            dtype,
            ctx_id: self.ctx.id(),
        })
    }

    /// A pooled array of `shape` for a result.
    pub(crate) fn lease_output<O: Element>(&mut self, shape: Vec<usize>) -> Result<GpuArray<O>> {
        let len: usize = shape.iter().product();
        self.ctx.check_array_size(len, O::DTYPE)?;
        let bytes = padded_bytes(len, O::DTYPE);
        // Where memory is shared, every result can be mapped (see Context::read_into_vec).
        let usage = if bytes <= self.mapped_outputs || self.ctx.inner.caps.unified_memory {
            TEMP_USAGE | wgpu::BufferUsages::MAP_READ
        } else {
            TEMP_USAGE
        };
        let buf = self.ctx.lease(bytes, usage)?;
        Ok(GpuArray::from_storage(
            Storage::Pooled(buf),
            shape,
            self.ctx.id(),
        ))
    }

    /// The dispatch grid for `groups` workgroups numbered linearly: `(x, y)` with `x` within
    /// the device's per-dimension limit.
    pub(crate) fn grid(&self, groups: u32) -> Result<(u32, u32)> {
        let limit = self
            .ctx
            .inner
            .caps
            .limits
            .max_compute_workgroups_per_dimension
            .max(1);
        let x = groups.clamp(1, limit);
        let y = groups.div_ceil(x).max(1);
        if y > limit {
            return Err(Error::TooLarge {
                what: format!("a dispatch of {groups} workgroups"),
                bytes: u64::from(groups),
                limit: u64::from(limit) * u64::from(limit),
                limit_name: "max_compute_workgroups_per_dimension (squared)",
            });
        }
        Ok((x, y))
    }

    /// Records one dispatch of `kernel` over `groups` x `layers` workgroups (`groups` spread
    /// over x and y when there are more than one dimension allows; the kernels number them
    /// linearly; `layers` along z).
    pub(crate) fn push_dispatch<P: KernelParams>(
        &mut self,
        kernel: Kernel,
        src: &RawArray,
        dst: &RawArray,
        dst_bytes: u64,
        params: P,
        groups: (u32, u32),
    ) -> Result<()> {
        self.push_dispatch_aux(kernel, src, dst, dst_bytes, None, params, groups)
    }

    /// [`push_dispatch`](Self::push_dispatch) with an array bound at binding 4.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push_dispatch_aux<P: KernelParams>(
        &mut self,
        kernel: Kernel,
        src: &RawArray,
        dst: &RawArray,
        dst_bytes: u64,
        aux: Option<&RawArray>,
        params: P,
        groups: (u32, u32),
    ) -> Result<()> {
        let src_window = 0..src.bytes();
        self.push_windowed(
            kernel,
            (src, src_window),
            (dst, 0..dst_bytes),
            aux,
            params,
            groups,
        )
    }

    /// Records one dispatch that binds byte ranges of `src` and `dst` (each starting at a
    /// multiple of the device's storage offset alignment; see [`window`](Self::window)).
    pub(crate) fn push_windowed<P: KernelParams>(
        &mut self,
        kernel: Kernel,
        (src, src_window): (&RawArray, Range<u64>),
        (dst, dst_window): (&RawArray, Range<u64>),
        aux: Option<&RawArray>,
        params: P,
        (groups, layers): (u32, u32),
    ) -> Result<()> {
        // A kernel reads only its own family's parameters (checked against the WGSL structs in
        // tests/shaders.rs).
        debug_assert_eq!(kernel.family(), P::FAMILY, "{}", kernel.label());
        // Pieces are planned to fit (callers check arrays that cannot be cut); wgpu would
        // reject a larger binding with a validation error, which `submit` returns.
        debug_assert!(src_window.end - src_window.start <= self.binding_limit() + 16);
        debug_assert!(dst_window.end - dst_window.start <= self.binding_limit());
        let (x, y) = self.grid(groups)?;
        let grid = (x, y, layers.max(1));
        let pipeline = self.ctx.pipeline(kernel)?;
        self.dispatches.push(Dispatch {
            pipeline,
            src: src.clone(),
            src_window,
            dst: dst.clone(),
            dst_window,
            aux: aux.cloned(),
            aux_window: None,
            carries: None,
            second: None,
            params: params.words(),
            grid,
        });
        Ok(())
    }

    /// Sets the first `n` words of `dst` to `value` (`src`, another array, is bound but not
    /// read).
    pub(crate) fn record_fill(
        &mut self,
        src: &RawArray,
        dst: &RawArray,
        n: usize,
        value: u32,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let groups = n.div_ceil(256) as u32;
        let fill = FillParams {
            n: n as u32,
            groups_x: self.grid(groups)?.0,
            value,
            ..Default::default()
        };
        self.push_dispatch(Kernel::Fill, src, dst, (n * 4) as u64, fill, (groups, 1))
    }

    /// Binds only `window` of the auxiliary array of the dispatch pushed last (a piece of a
    /// sort's values), from a multiple of the storage offset alignment.
    pub(crate) fn window_aux(&mut self, window: Range<u64>) {
        if let Some(d) = self.dispatches.last_mut() {
            d.aux_window = Some(window);
        }
    }

    /// Binds `carries` (a downsweep's tile totals) at binding 5 of the dispatch pushed last.
    pub(crate) fn bind_carries(&mut self, carries: &RawArray) {
        if let Some(d) = self.dispatches.last_mut() {
            d.carries = Some(carries.clone());
        }
    }

    /// Binds `window` of `second` (a dot product's second input, or a segmented reduction's
    /// offsets) at binding 0 of the dispatch pushed last.
    pub(crate) fn bind_second(&mut self, second: &RawArray, window: Range<u64>) {
        if let Some(d) = self.dispatches.last_mut() {
            d.second = Some((second.clone(), window));
        }
    }

    /// The most bytes one storage binding may span (the device's
    /// `max_storage_buffer_binding_size`, lowered in tests by `Testing::max_storage_binding_bytes`).
    pub(crate) fn binding_limit(&self) -> u64 {
        self.ctx.inner.caps.limits.max_storage_buffer_binding_size
    }

    /// The bytes a piece of an array may span so that its window (which starts up to three
    /// offset alignments earlier, see [`window`](Self::window), and is bound rounded up to 16
    /// bytes) fits one binding.
    pub(crate) fn piece_budget(&self) -> u64 {
        self.binding_limit()
            .saturating_sub(3 * self.offset_alignment_bytes() + 16)
    }

    pub(crate) fn offset_alignment_bytes(&self) -> u64 {
        u64::from(
            self.ctx
                .inner
                .caps
                .limits
                .min_storage_buffer_offset_alignment,
        )
        .max(16)
    }

    /// The window binding `len` elements of `elem_bytes` bytes from element `first`: the byte
    /// range to bind, and the element index of `first` within it.
    pub(crate) fn window(&self, first: u64, len: u64, elem_bytes: u64) -> (Range<u64>, u32) {
        let start = first * elem_bytes;
        // A multiple of both the alignment and the element size (12-byte var/std states), so
        // the element index of `first` within the window is whole.
        let align = self.offset_alignment_bytes();
        let step = align * elem_bytes / gcd(align, elem_bytes);
        let bound = start / step * step;
        (
            bound..start + len * elem_bytes,
            ((start - bound) / elem_bytes) as u32,
        )
    }

    /// Reads `flag` (one u32, set by a check on the GPU) with the results: `wait` returns the
    /// error `check` names unless it is still `u32::MAX`.
    pub(crate) fn read_check(&mut self, flag: &RawArray, check: Check) {
        let offset = self.read_bytes;
        self.read_bytes += 8;
        self.reads.push(Read {
            src: flag.clone(),
            offset,
            sole: false,
        });
        self.checks.push((offset, check));
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
