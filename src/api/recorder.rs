//! The [`Recorder`]'s own methods: reads, timestamps, counts, and submitting or encoding what
//! it recorded.

use std::marker::PhantomData;

use crate::array::GpuArray;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::ops::{Scan, ScanAlgorithm};
use crate::record::encode::Schedule;
use crate::record::{Read, ReadToken, Recorder, Submission};

impl Recorder {
    /// Asks for GPU timestamps around the recorded work; [`Results::gpu_time`](crate::Results::gpu_time) then reports how
    /// long the GPU spent on it. Ignored (time `None`) where the device lacks
    /// `TIMESTAMP_QUERY`.
    pub fn enable_timestamps(&mut self) -> &mut Self {
        self.timestamps = self.ctx.capabilities().timestamps;
        self
    }

    /// Number of compute dispatches recorded so far.
    pub fn dispatch_count(&self) -> usize {
        self.dispatches.len()
    }

    /// Records a copy of `x` to the host; its values come back in the [`Results`](crate::Results) of
    /// [`submit`](Self::submit)`.wait()`. The copy runs after every operation recorded before
    /// it, so reading a result recorded earlier is fine.
    pub fn read<T: Element>(&mut self, x: &GpuArray<T>) -> Result<ReadToken<T>> {
        let raw = x.raw();
        self.check_ctx(&raw, "the array to read")?;
        if !raw.buffer().usage().contains(wgpu::BufferUsages::COPY_SRC) {
            return Err(Error::InvalidBuffer {
                reason: format!(
                    "reading an array needs COPY_SRC usage on its buffer, which has {:?}",
                    raw.buffer().usage()
                ),
            });
        }
        let offset = self.read_bytes;
        let bytes = raw.bytes().div_ceil(8) * 8;
        self.read_bytes += bytes;
        let len = raw.len;
        if len > 0 {
            let sole = self.mapped_outputs > 0;
            self.reads.push(Read {
                src: raw,
                offset,
                sole,
            });
        }
        Ok(ReadToken {
            recording: self.id,
            offset,
            len,
            _t: PhantomData,
        })
    }

    /// How many of the recorded dispatches wgpu will make wait for the work before them: those
    /// that use a buffer an earlier dispatch of the recording wrote, or write one an earlier
    /// dispatch used (wgpu puts a barrier there, which on Vulkan and DX12 waits for every
    /// dispatch before it). Operations that share no array (none reads what another writes)
    /// need not wait for each other, so the GPU may run them side by side: what a dispatch
    /// writes besides its result (the clean states of a look-back scan or of a one-pass
    /// reduction, or the stand-in bound where a kernel has none) is taken in turn from up to 256
    /// buffers of the context, so a recording's dispatches meet one of them again only from the
    /// 257th such dispatch on (and each of those waits). Each pass of an operation after its
    /// first waits for the one before it, but the passes of operations side by side are
    /// encoded level by level and wait together, one barrier for a level of them. On Metal
    /// wgpu encodes a compute pass with Metal's serial dispatch type, in which every dispatch
    /// runs after the one before it whatever this count says.
    ///
    /// ```
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// let ctx = wgpu_reduce::Context::new()?;
    /// let a = ctx.upload(&[1.0f32, 2.0, 3.0])?;
    /// let b = ctx.upload(&[4.0f32, 5.0])?;
    /// let mut rec = ctx.recorder();
    /// let sum_a = rec.sum(&a, .., false)?;
    /// let sum_b = rec.sum(&b, .., false)?;
    /// let running = rec.cumsum(&a)?;
    /// assert_eq!(rec.barriers(), 0); // three operations that may run side by side
    /// let last = rec.max(&running, .., false)?;
    /// assert_eq!(rec.barriers(), 1); // reads what the cumsum writes: waits for it
    /// let (sa, sb, m) = (rec.read(&sum_a)?, rec.read(&sum_b)?, rec.read(&last)?);
    /// let res = rec.submit()?.wait()?;
    /// assert_eq!((res.get(&sa)?, res.get(&sb)?, res.get(&m)?), (vec![6.0], vec![9.0], vec![6.0]));
    /// # Ok(())
    /// # }
    /// ```
    pub fn barriers(&self) -> usize {
        let uses = self.all_uses();
        self.count_barriers(&self.schedule_of(&uses), &uses)
    }

    /// The barriers the recording would wait at if its dispatches were encoded in the order
    /// recorded (for the library's tests of [`barriers`](Self::barriers)).
    #[doc(hidden)]
    pub fn barriers_as_recorded(&self) -> usize {
        let uses = self.all_uses();
        self.count_barriers(&Schedule::recorded(self.dispatches.len()), &uses)
    }

    /// Encodes everything recorded and submits it in one `Queue::submit`. Returns at once; the
    /// GPU runs in the background. Call [`Submission::wait`] for the values recorded with
    /// [`read`](Self::read) (or to know the work has finished).
    pub fn submit(self) -> Result<Submission> {
        let ctx = self.ctx.clone();
        ctx.scoped("submitting recorded work", || self.submit_inner())
    }

    /// Encodes everything recorded into `encoder`, which the caller submits. No submission is
    /// made here, and nothing waits: the caller's frame or command buffer carries the work.
    ///
    /// Reads and timestamps cannot be recorded this way (they need the library's own
    /// submission); read results later with [`Context::read`] once the caller has submitted.
    /// The parameter uniform is filled when it is made and never written again (see
    /// [`ContextStats::parameter_buffers`]), so nothing depends on when (or together with what)
    /// the caller submits.
    ///
    /// [`Context::read`]: crate::Context::read
    /// [`ContextStats::parameter_buffers`]: crate::ContextStats::parameter_buffers
    pub fn record_into(self, encoder: &mut wgpu::CommandEncoder) -> Result<()> {
        if !self.checks.is_empty() {
            return Err(Error::InvalidUse(
                "a segmented reduction with offsets on the GPU checks them with a flag read by \
                 Submission::wait: submit it with Recorder::submit (or pass host offsets)"
                    .into(),
            ));
        }
        if !self.reads.is_empty() {
            return Err(Error::InvalidUse(
                "Recorder::read cannot be used with record_into: submit the encoder, then read \
                 the result arrays with Context::read or a new recorder"
                    .into(),
            ));
        }
        let ctx = self.ctx.clone();
        ctx.scoped("recording into a caller's encoder", || {
            let stride = self.params_stride();
            let params = ctx.parameter_buffer(&self.params_bytes(stride));
            self.encode_dispatches(encoder, &params, stride, None);
            Ok(())
        })
    }

    /// The algorithm a scan of `x` into `out` recorded next would take: `scan.algorithm`, or
    /// for [`ScanAlgorithm::Auto`] [`Context::scan_algorithm`](crate::Context::scan_algorithm)'s choice, except that one row
    /// of more than [`Tuning::scan_lookback_row_tiles`](crate::Tuning) tiles takes
    /// [`ScanAlgorithm::ReduceThenScan`] on Vulkan and DX12 when an operation recorded before
    /// it used `out` and none wrote `x`: the scan then waits for that work, while
    /// reduce-then-scan's first pass (which reads only `x`) does not, and runs beside it (on
    /// Metal every dispatch runs after the one before it).
    ///
    /// ```
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{Scan, ScanAlgorithm, ScanOp};
    /// let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&vec![1.0f32; 1 << 21])?;
    /// let out = ctx.zeros::<f32>(&[1 << 21])?;
    /// let cumsum = Scan::new(ScanOp::Add);
    /// let mut rec = ctx.recorder();
    /// let first = rec.scan_algorithm(&x, &cumsum, &out)?;
    /// assert_eq!(first, ctx.scan_algorithm(1, 1 << 21));
    /// rec.scan_into(&x, &cumsum, &out)?;
    /// let again = rec.scan_algorithm(&x, &cumsum, &out)?;
    /// // Where the first took the look-back, on Vulkan and DX12:
    /// let backend = ctx.capabilities().adapter.backend;
    /// let beside = matches!(backend, wgpu::Backend::Vulkan | wgpu::Backend::Dx12);
    /// if first == ScanAlgorithm::DecoupledFallback && beside {
    ///     assert_eq!(again, ScanAlgorithm::ReduceThenScan);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn scan_algorithm<T: Element, O: Element>(
        &self,
        x: &GpuArray<T>,
        scan: &Scan,
        out: &GpuArray<O>,
    ) -> Result<ScanAlgorithm> {
        let (rows, len) = scan.rows(x.shape())?;
        Ok(match scan.algorithm {
            ScanAlgorithm::Auto => {
                let waits = self.output_waits(&x.raw(), &out.raw(), rows);
                self.ctx().auto_scan_algorithm(rows, len, waits)
            }
            a => a,
        })
    }
}
