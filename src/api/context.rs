//! The [`Context`]'s own methods: making one, what it holds, its buffer pool, arrays in and
//! out, and what its scans take.

use std::sync::atomic::Ordering;

use crate::array::{check_shape, padded_bytes, GpuArray, Storage, ARRAY_USAGE};
use crate::context::{Capabilities, Context, ContextOptions, ContextStats};
use crate::element::Element;
use crate::error::{Error, Result};
use crate::kernels::scan_tile_len;
use crate::ops::ScanAlgorithm;
use crate::plan::scan::{lookback_workgroup, tile_span};
use crate::plan::tuning::Tuning;
use crate::pool::PoolStats;
use crate::record::{Readback, Recorder, NEXT_RECORDING};

impl Context {
    /// Creates a context (async; the form to use on the web).
    pub async fn new_async(options: ContextOptions) -> Result<Context> {
        Context::open(options).await
    }

    /// Builds a context on a device and queue that the application already owns, so that arrays
    /// can wrap the application's buffers and work can be recorded into its encoders.
    ///
    /// The device keeps its own uncaptured-error and device-lost handlers (the library does not
    /// replace them); errors from the library's own calls are still captured into [`Error`]s.
    /// The library uses whichever of `SUBGROUP`, `SHADER_F16` and `TIMESTAMP_QUERY` the device
    /// was created with; [`Subgroups::Require`](crate::Subgroups::Require) fails with [`Error::FeatureMissing`] if that
    /// does not include `SUBGROUP`.
    pub fn from_wgpu(
        device: wgpu::Device,
        queue: wgpu::Queue,
        options: ContextOptions,
    ) -> Result<Context> {
        Context::open_on(device, queue, options)
    }

    /// Creates a context with [`ContextOptions::default`] (blocking; not on the web, where
    /// [`new_async`](Self::new_async) is the form).
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn new() -> Result<Context> {
        Self::with_options(ContextOptions::default())
    }

    /// Creates a context with the given options (blocking; not on the web, where
    /// [`new_async`](Self::new_async) is the form).
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn with_options(options: ContextOptions) -> Result<Context> {
        pollster::block_on(Self::new_async(options))
    }

    /// What the device can do.
    pub fn capabilities(&self) -> &Capabilities {
        &self.inner.caps
    }

    /// The kernel settings in force.
    pub fn tuning(&self) -> Tuning {
        self.inner.tuning
    }

    /// The wgpu device.
    pub fn device(&self) -> &wgpu::Device {
        &self.inner.device
    }

    /// The wgpu queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.inner.queue
    }

    /// Counters of submissions, dispatches, readbacks and compiled pipelines.
    pub fn stats(&self) -> ContextStats {
        let c = &self.inner.counters;
        ContextStats {
            submissions: c.submissions.load(Ordering::Relaxed),
            dispatches: c.dispatches.load(Ordering::Relaxed),
            readbacks: c.readbacks.load(Ordering::Relaxed),
            pipelines_compiled: c.pipelines_compiled.load(Ordering::Relaxed),
            parameter_buffers: c.parameter_buffers.load(Ordering::Relaxed),
            bind_groups: c.bind_groups.load(Ordering::Relaxed),
            mapped_reads: c.mapped_reads.load(Ordering::Relaxed),
        }
    }

    /// Statistics of the buffer pool.
    pub fn pool_stats(&self) -> PoolStats {
        self.inner.pool.stats(&self.inner.device)
    }

    /// Frees every buffer the pool holds for reuse (buffers in use, or still used by the GPU,
    /// are kept).
    pub fn trim_pool(&self) {
        self.inner
            .bind_groups
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.inner.pool.trim(&self.inner.device)
    }

    /// Sets the pool's high-water mark to the bytes it holds now.
    pub fn reset_pool_high_water(&self) {
        self.inner.pool.reset_high_water()
    }

    /// Compiles `map` with this device's WGSL compiler (naga on native backends, the browser's
    /// on the web) and returns its first error, with the line in the map's own text, as
    /// [`Error::InvalidMap`]. [`Map::new`](crate::Map::new) has already parsed and validated the
    /// map with naga; a browser's compiler can be stricter, and this asks it before the first
    /// reduction does. Blocking; see [`Context::check_map_async`] on the web.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// # let ctx = wgpu_reduce::Context::new()?;
    /// use wgpu_reduce::Map;
    /// let cube = Map::new("fn map(x: f32) -> f32 { return x * x * x; }")?;
    /// ctx.check_map(&cube)?;
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn check_map(&self, map: &crate::ops::Map) -> Result<()> {
        pollster::block_on(self.check_map_async(map))
    }

    /// [`Context::check_map`] for any platform: compiles the map and reads the compiler's
    /// messages without blocking.
    pub async fn check_map_async(&self, map: &crate::ops::Map) -> Result<()> {
        // The map's text first, so compiler lines are the map's own; then a caller with the
        // signature a kernel uses.
        let probe = format!(
            "{}\nfn wgpu_reduce_map_signature(x: f32) -> f32 {{ return map(x); }}\n",
            map.source()
        );
        let device = self.device();
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("wgpu-reduce map"),
            source: wgpu::ShaderSource::Wgsl(probe.into()),
        });
        let info = module.get_compilation_info().await;
        let scoped = scope.pop().await;
        let lines = map.source().lines().count() as u32;
        let first = info
            .messages
            .iter()
            .find(|m| m.message_type == wgpu::CompilationMessageType::Error);
        if let Some(m) = first {
            let message = match m.location {
                Some(l) if l.line_number > lines => {
                    format!("`map` must be `fn map(x: f32) -> f32`: {}", m.message)
                }
                Some(l) => format!("line {}: {}", l.line_number, m.message),
                None => m.message.clone(),
            };
            return Err(Error::InvalidMap { message });
        }
        if let Some(e) = scoped {
            return Err(Error::InvalidMap {
                message: e.to_string(),
            });
        }
        Ok(())
    }

    /// A new GPU array of `shape` filled with zeros, made on the device without host data (for
    /// outputs of [`Recorder::scan_into`](crate::Recorder::scan_into) or
    /// [`Recorder::reduce_into`](crate::Recorder::reduce_into), say). An array larger than
    /// the device's `max_buffer_size` is [`Error::TooLarge`]; one that does not fit in the
    /// device's free memory is [`Error::OutOfMemory`].
    pub fn zeros<T: Element>(&self, shape: &[usize]) -> Result<GpuArray<T>> {
        let len = shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .ok_or_else(|| Error::TooLarge {
                what: format!("an array of shape {shape:?}"),
                bytes: u64::MAX,
                limit: u64::from(u32::MAX) * T::DTYPE.size_bytes() as u64,
                limit_name: "2^32 - 1 elements per array",
            })?;
        self.check_array_size(len, T::DTYPE)?;
        let buffer = self.scoped("allocating an array", || {
            Ok(self.inner.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("wgpu-reduce array"),
                size: padded_bytes(len, T::DTYPE),
                usage: ARRAY_USAGE,
                mapped_at_creation: false,
            }))
        })?;
        Ok(GpuArray::from_storage(
            Storage::Owned(buffer),
            shape.to_vec(),
            self.id(),
        ))
    }

    /// Copies `data` into a new 1-D GPU array.
    pub fn upload<T: Element>(&self, data: &[T]) -> Result<GpuArray<T>> {
        self.upload_shaped(data, &[data.len()])
    }

    /// Copies `data` into a new GPU array of the given shape (row-major).
    pub fn upload_shaped<T: Element>(&self, data: &[T], shape: &[usize]) -> Result<GpuArray<T>> {
        check_shape(shape, data.len())?;
        self.check_array_size(data.len(), T::DTYPE)?;
        let size = padded_bytes(data.len(), T::DTYPE);
        let bytes: &[u8] = bytemuck::cast_slice(data);
        let buffer = self.scoped("uploading an array", || {
            if self.inner.caps.unified_memory {
                // Memory the CPU shares: write the data in place, no staging copy.
                let buffer = self.inner.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("wgpu-reduce array"),
                    size,
                    usage: ARRAY_USAGE
                        | wgpu::BufferUsages::MAP_WRITE
                        | wgpu::BufferUsages::MAP_READ,
                    mapped_at_creation: true,
                });
                {
                    let mut view = buffer
                        .slice(..)
                        .get_mapped_range_mut()
                        // A buffer just made that cannot be mapped is an invalid one (a
                        // destroyed device, say): wgpu's own validation error says why.
                        .map_err(|e| Error::Validation {
                            what: "uploading an array".into(),
                            source: crate::error::WgpuError::new(e),
                        })?;
                    // The padding after the data stays as wgpu made it: zero.
                    view.slice(..bytes.len()).copy_from_slice(bytes);
                }
                buffer.unmap();
                return Ok(buffer);
            }
            let buffer = self.inner.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("wgpu-reduce array"),
                size,
                usage: ARRAY_USAGE,
                mapped_at_creation: false,
            });
            // Copies must be whole 4-byte words: an odd number of 16-bit elements ends in a
            // word padded with zero.
            let aligned = bytes.len() / 4 * 4;
            if aligned > 0 {
                self.inner.queue.write_buffer(&buffer, 0, &bytes[..aligned]);
            }
            if aligned < bytes.len() {
                let mut tail = [0u8; 4];
                tail[..bytes.len() - aligned].copy_from_slice(&bytes[aligned..]);
                self.inner
                    .queue
                    .write_buffer(&buffer, aligned as u64, &tail);
            }
            Ok(buffer)
        })?;
        Ok(GpuArray::from_storage(
            Storage::Owned(buffer),
            shape.to_vec(),
            self.id(),
        ))
    }

    /// Starts a new recording.
    pub fn recorder(&self) -> Recorder {
        Recorder {
            ctx: self.clone(),
            id: NEXT_RECORDING.fetch_add(1, Ordering::Relaxed),
            dispatches: Vec::new(),
            reads: Vec::new(),
            read_bytes: 0,
            timestamps: false,
            checks: Vec::new(),
            mapped_outputs: 0,
            clean_states: 0,
        }
    }

    /// Records work with a new [`Recorder`], submits it once, waits for it and reads back what
    /// `record` returns (see [`Readback`]: an array's values as a `Vec`, a tuple of arrays as a
    /// tuple of `Vec`s): any recorder method, or several, as one blocking call with one host
    /// round trip. Results of a few bytes are made in memory the CPU maps, so the read copies
    /// nothing ([`ContextOptions::mapped_results`](crate::ContextOptions::mapped_results)).
    ///
    /// Blocking, so not on the web: there [`run_async`](Self::run_async) is the same call.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// assert_eq!(ctx.run(|rec| rec.sum(&x, .., false))?, vec![21.0]);
    /// let (rows, at) = ctx.run(|rec| Ok((rec.sum(&x, -1, false)?, rec.argmax(&x, .., false)?)))?;
    /// assert_eq!((rows, at), (vec![6.0, 15.0], vec![5]));
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn run<R: Readback>(
        &self,
        record: impl FnOnce(&mut Recorder) -> Result<R>,
    ) -> Result<R::Host> {
        let (rec, tokens) = self.record_reads(record)?;
        R::collect(tokens, &rec.submit()?.wait()?)
    }

    /// [`run`](Self::run) without blocking: the one-step form on the web, and in async code.
    ///
    /// ```no_run
    /// # async fn f() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{Context, ContextOptions};
    /// let ctx = Context::new_async(ContextOptions::default()).await?;
    /// let x = ctx.upload(&[1.5f32, 2.0, -0.5])?;
    /// let sum = ctx.run_async(|rec| rec.sum(&x, .., false)).await?;
    /// assert_eq!(sum, vec![3.0]);
    /// # Ok(()) }
    /// ```
    pub async fn run_async<R: Readback>(
        &self,
        record: impl FnOnce(&mut Recorder) -> Result<R>,
    ) -> Result<R::Host> {
        let (rec, tokens) = self.record_reads(record)?;
        R::collect(tokens, &rec.submit()?.wait_async().await?)
    }

    /// Records `record` with a recorder for one-step reads, and the reads of what it returns.
    fn record_reads<R: Readback>(
        &self,
        record: impl FnOnce(&mut Recorder) -> Result<R>,
    ) -> Result<(Recorder, R::Tokens)> {
        let mut rec = self.reading_recorder();
        let out = record(&mut rec)?;
        let tokens = out.request(&mut rec)?;
        drop(out);
        Ok((rec, tokens))
    }

    /// Reads an array back to the host (one submission, one round trip; blocking, so not on
    /// the web, where [`read_async`](Self::read_async) is the form).
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn read<T: Element>(&self, x: &GpuArray<T>) -> Result<Vec<T>> {
        let mut rec = self.recorder();
        let t = rec.read(x)?;
        rec.submit()?.wait()?.get(&t)
    }

    /// Reads an array the caller gives up. Where the adapter shares memory with the CPU
    /// ([`Capabilities::unified_memory`](crate::Capabilities::unified_memory)) and no other
    /// handle to the array (a clone, a reshaped view, a recording not yet submitted) exists, the
    /// CPU maps the array's own memory and nothing is copied; otherwise this is
    /// [`read`](Self::read). ([`read`](Self::read) always copies: mapping an array that
    /// another handle may be using at the same time would make that use fail.) Blocking.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload(&[1u32, 2, 3, 4])?;
    /// let mut rec = ctx.recorder();
    /// let c = rec.cumsum(&x)?;
    /// let _ = rec.submit()?;
    /// assert_eq!(ctx.read_into_vec(c)?, vec![1, 3, 6, 10]);
    /// # Ok(()) }
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn read_into_vec<T: Element>(&self, x: GpuArray<T>) -> Result<Vec<T>> {
        let mut rec = self.recorder();
        let t = rec.read(&x)?;
        if self.inner.caps.unified_memory && std::sync::Arc::strong_count(&x.storage) == 2 {
            // The recorder's handle and `x`, which is dropped below: the read is the only use.
            if let Some(r) = rec.reads.last_mut() {
                r.sole = true;
            }
        }
        drop(x);
        rec.submit()?.wait()?.get(&t)
    }

    /// Reads an array back to the host without blocking (see [`Submission::wait_async`](crate::Submission::wait_async)).
    pub async fn read_async<T: Element>(&self, x: &GpuArray<T>) -> Result<Vec<T>> {
        let mut rec = self.recorder();
        let t = rec.read(x)?;
        rec.submit()?.wait_async().await?.get(&t)
    }

    /// The algorithm [`ScanAlgorithm::Auto`] picks for `rows` rows of `len` elements on this
    /// adapter: [`ScanAlgorithm::DecoupledFallback`] on Vulkan, Metal and DX12 when a row spans
    /// at least two tiles and either at most
    /// [`Tuning::scan_lookback_row_tiles`](crate::Tuning) tiles or the whole scan at most
    /// [`Tuning::scan_lookback_max_tiles`](crate::Tuning) tiles (one longer row: at most
    /// [`Tuning::scan_lookback_wide_max_tiles`](crate::Tuning) tiles of the larger look-back
    /// workgroup); [`ScanAlgorithm::ReduceThenScan`] otherwise (and always on GL and WebGPU).
    /// Rows of at most [`scan_row_tile`](Self::scan_row_tile) elements are one tile each,
    /// scanned in one pass whichever algorithm is asked for; this reports
    /// [`ScanAlgorithm::ReduceThenScan`] for them.
    ///
    /// A look-back tile finishes only after every tile before it in its row has published its
    /// total, so one slow load holds up the tiles claimed after it while they keep their
    /// registers; short rows wait only on a few tiles, the first of which publishes at once.
    /// That is why the look-back is taken for short rows and short scans only.
    ///
    /// This is the choice for a scan into an output that no earlier operation of its recording
    /// used; see [`Recorder::scan_algorithm`] for the exception.
    pub fn scan_algorithm(&self, rows: usize, len: usize) -> ScanAlgorithm {
        self.auto_scan_algorithm(rows, len, false)
    }

    /// Elements per scan tile with this context's workgroup size.
    pub fn scan_tile(&self) -> usize {
        scan_tile_len(self.tuning().workgroup_size) as usize
    }

    /// The longest rows a scan takes in one pass, one tile per row: a tile at
    /// [`Tuning::scan_row_workgroup_size`](crate::Tuning) (twice [`scan_tile`](Self::scan_tile)
    /// where the larger workgroup is taken). Rows whose length is not a multiple of 4 need 3
    /// elements of it as slack: their tiles start at the 16-byte boundary before the row.
    pub fn scan_row_tile(&self) -> usize {
        scan_tile_len(self.tuning().scan_row_workgroup_size) as usize
    }

    /// Elements per tile of a look-back pass over `rows` rows of `len` elements, each longer
    /// than [`scan_row_tile`](Self::scan_row_tile): [`scan_tile`](Self::scan_tile), or for one
    /// row of more than [`Tuning::scan_lookback_max_tiles`](crate::Tuning) such tiles, a tile
    /// at [`Tuning::scan_lookback_workgroup_size`](crate::Tuning).
    pub fn scan_lookback_tile(&self, rows: usize, len: usize) -> usize {
        let tuning = self.tuning();
        scan_tile_len(lookback_workgroup(rows, tile_span(rows, len), &tuning)) as usize
    }
}
