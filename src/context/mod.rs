//! The [`Context`]: adapter, device, queue, capabilities, and the shared state of the library
//! (buffer pool, pipeline cache, counters).

use crate::kernels::CLEAN_STATE_WORDS;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub(crate) mod bind_groups;
mod options;
mod resolve;
pub(crate) mod slots;

pub use options::{
    Capabilities, ContextOptions, ContextStats, Subgroups, Testing, MAPPED_RESULT_MAX_BYTES,
};

use crate::error::{Error, Result};
use crate::kernels::Kernels;
use crate::plan::tuning::Tuning;
use crate::pool::Pool;

/// Parameter buffers a context keeps for reuse (see [`ContextStats::parameter_buffers`]).
pub(crate) const PARAMETER_CACHE: usize = 256;

/// The largest parameter buffer kept for reuse (256 dispatches of 256-byte slots, 1024 of
/// 64-byte ones).
pub(crate) const PARAMETER_CACHE_ENTRY_BYTES: usize = 64 << 10;

/// A value set by a wgpu callback and read by later calls.
pub(crate) type Slot<T> = Arc<Mutex<Option<T>>>;

#[derive(Default)]
pub(crate) struct Counters {
    pub submissions: AtomicU64,
    pub dispatches: AtomicU64,
    pub readbacks: AtomicU64,
    pub pipelines_compiled: AtomicU64,
    pub parameter_buffers: AtomicU64,
    pub bind_groups: AtomicU64,
    pub mapped_reads: AtomicU64,
}

pub(crate) struct Inner {
    pub id: u64,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub caps: Capabilities,
    pub tuning: Tuning,
    /// See [`Testing`].
    pub testing: Testing,
    /// See [`ContextOptions::wait_spin`].
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub wait_spin: std::time::Duration,
    pub pool: Pool,
    pub kernels: Kernels,
    pub counters: Counters,
    /// Set by the device-lost callback (or when a wait reports loss).
    pub lost: Slot<String>,
    /// On the web: the first wgpu error raised by the library's work, returned by the next
    /// call (error scopes there resolve only after the call that opened them has returned).
    pub deferred: Slot<Error>,
    /// A small storage buffer bound in place of a view that would be empty.
    pub dummy: wgpu::Buffer,
    /// Bound at binding 4 by kernels that do not use it (separate buffers, so they never meet
    /// `dummy` in two usages of one dispatch): dispatch `i` of a recording binds slot `i`.
    pub dummy_aux: slots::Slots,
    /// Bound read-only at binding 5 where a dispatch has no tile totals (its own buffer, so
    /// that no dispatch binds `dummy` read-write and read-only at once).
    pub dummy_carries: wgpu::Buffer,
    /// States that are zero between dispatches, since the dispatch's last workgroup clears what
    /// it used (no fill pass before): the look-back's, for scans of at most
    /// [`LOOKBACK_CLEAN_TILES`](crate::kernels::LOOKBACK_CLEAN_TILES) tiles, and those of
    /// reductions whose last workgroup combines ([`CLEAN_STATE_WORDS`] words each).
    /// The `j`-th such operation of a recording takes slot `j`.
    pub clean_states: slots::Slots,
    /// One read-only storage binding: a caller's buffer is bound to it once when wrapped, so
    /// that wgpu checks the buffer belongs to this device.
    pub probe_layout: wgpu::BindGroupLayout,
    /// Uniform buffers of kernel parameters by their bytes (see [`Context::parameter_buffer`]).
    pub params: Mutex<HashMap<Vec<u8>, wgpu::Buffer>>,
    /// Bind groups kept for reuse (see [`bind_groups`]).
    pub bind_groups: Mutex<bind_groups::BindGroups>,
    /// The file of the pipeline cache (see [`ContextOptions::pipeline_cache_dir`]), and the
    /// count of compiled pipelines when it was last loaded or written.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub cache_file: Option<(std::path::PathBuf, AtomicU64)>,
    /// Last field, so it is dropped last: ends the turn `Inner::drop` takes (see
    /// [`DRIVER_TURN`]).
    _teardown: DriverTurn,
}

/// Devices are created and torn down one at a time across the process. NVIDIA's Vulkan driver
/// (580) was seen to deadlock when several devices were destroyed at once on different threads
/// (test threads each dropping their own context: `vkDestroyDevice`, command pool, pipeline and
/// memory frees all waiting on one driver lock; 4 of 10 parallel runs of a test binary hung,
/// never with one test thread), and to crash now and then when several were created at once.
/// [`Context::new_async`] holds a turn while it creates its device; `Inner::drop` waits for a
/// turn, and its last field ends it after the device, queue, pipelines and pooled buffers have
/// been dropped. (Not on the web: one thread, and a turn held across an `await` there could
/// never be waited for.)
static DRIVER_TURN: (Mutex<bool>, std::sync::Condvar) =
    (Mutex::new(false), std::sync::Condvar::new());

/// Ends the holder's turn (see [`DRIVER_TURN`]) when dropped.
struct DriverTurn;

impl DriverTurn {
    fn take() -> DriverTurn {
        if cfg!(not(target_arch = "wasm32")) {
            let mut busy = DRIVER_TURN.0.lock().unwrap_or_else(|e| e.into_inner());
            while *busy {
                busy = DRIVER_TURN.1.wait(busy).unwrap_or_else(|e| e.into_inner());
            }
            *busy = true;
        }
        DriverTurn
    }
}

impl Drop for DriverTurn {
    fn drop(&mut self) {
        *DRIVER_TURN.0.lock().unwrap_or_else(|e| e.into_inner()) = false;
        DRIVER_TURN.1.notify_one();
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Err(e) = save_pipeline_cache(self) {
            log::warn!("wgpu-reduce: {e}");
        }
        // The fields, `_teardown` last (which ends this turn), are dropped after this returns.
        std::mem::forget(DriverTurn::take());
    }
}

/// A GPU device ready for reductions. Cheap to clone; `Send + Sync`.
///
/// ```no_run
/// # fn main() -> wgpu_reduce::Result<()> {
/// let ctx = wgpu_reduce::Context::new()?;
/// println!("running on {} ({:?})", ctx.capabilities().adapter.name, ctx.capabilities().adapter.backend);
/// let x = ctx.upload(&[1.0f32, 2.0, 3.0])?;
/// assert_eq!(ctx.run(|rec| rec.sum(&x, .., false))?, vec![6.0]);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Context {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("adapter", &self.inner.caps.adapter.name)
            .field("backend", &self.inner.caps.adapter.backend)
            .field("tuning", &self.inner.tuning)
            .finish()
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// How long a failed operation waits for a device-loss report (see
/// `Context::check_loss_after_failure`); only failures wait.
#[cfg(not(target_arch = "wasm32"))]
const LOSS_REPORT_WAIT: std::time::Duration = std::time::Duration::from_millis(250);

/// The features and limits to request from an adapter so that the library's fast paths are
/// on: what [`Context::new`] requests, and what an application that makes its own device for
/// [`Context::from_wgpu`] should add to its own needs (see
/// [`DeviceRequirements::for_adapter`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeviceRequirements {
    /// Of `SUBGROUP` (subgroup reductions), `SHADER_F16`, `TIMESTAMP_QUERY` (GPU times),
    /// `MAPPABLE_PRIMARY_BUFFERS` (results read and arrays uploaded without a staging copy)
    /// and `PIPELINE_CACHE` (kept compiled kernels, with a cache directory), those the adapter
    /// has. None of them is required: without one, its path is simply not taken.
    pub features: wgpu::Features,
    /// The adapter's own limits: the library takes the largest storage bindings and buffers
    /// (larger arrays are reduced in pieces, not refused), and workgroups of up to 512
    /// invocations and 32 KiB of workgroup memory, where the adapter allows them.
    pub limits: wgpu::Limits,
}

impl DeviceRequirements {
    /// What to request from `adapter` for a context with `options` (a cache directory adds
    /// `PIPELINE_CACHE`; mapped results or unified memory, `MAPPABLE_PRIMARY_BUFFERS`).
    ///
    /// ```no_run
    /// # async fn f() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{wgpu, Context, ContextOptions, DeviceRequirements};
    /// let instance = wgpu::Instance::default();
    /// let adapter = instance
    ///     .request_adapter(&wgpu::RequestAdapterOptions::default())
    ///     .await
    ///     .expect("an adapter");
    /// let options = ContextOptions::default();
    /// let wanted = DeviceRequirements::for_adapter(&adapter, &options);
    /// let (device, queue) = adapter
    ///     .request_device(&wgpu::DeviceDescriptor {
    ///         required_features: wanted.features, // | the app's own features
    ///         required_limits: wanted.limits,
    ///         ..Default::default()
    ///     })
    ///     .await
    ///     .expect("a device");
    /// let ctx = Context::from_wgpu(device, queue, options)?;
    /// # Ok(()) }
    /// ```
    pub fn for_adapter(adapter: &wgpu::Adapter, options: &ContextOptions) -> DeviceRequirements {
        let mut wanted =
            wgpu::Features::SUBGROUP | wgpu::Features::SHADER_F16 | wgpu::Features::TIMESTAMP_QUERY;
        if options.pipeline_cache_dir.is_some() {
            wanted |= wgpu::Features::PIPELINE_CACHE;
        }
        let shares = resolve::shares_memory(adapter.get_info().device_type);
        if options.unified_memory.unwrap_or(shares) || options.mapped_results.unwrap_or(true) {
            wanted |= wgpu::Features::MAPPABLE_PRIMARY_BUFFERS;
        }
        DeviceRequirements {
            features: adapter.features() & wanted,
            limits: adapter.limits(),
        }
    }
}

impl Context {
    /// Makes a context on an adapter of the options' choosing (see `Context::new_async`).
    pub(crate) async fn open(options: ContextOptions) -> Result<Context> {
        let instance = shared_instance(options.backends);
        let turn = DriverTurn::take();
        let adapter = select_adapter(&instance, &options).await?;
        let info = adapter.get_info();
        log::info!("wgpu-reduce: adapter {:?} ({:?})", info.name, info.backend);
        let wanted = DeviceRequirements::for_adapter(&adapter, &options);
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("wgpu-reduce"),
                required_features: wanted.features,
                required_limits: wanted.limits,
                experimental_features: wgpu::ExperimentalFeatures::disabled(),
                memory_hints: options.memory_hints.clone(),
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|e| Error::RequestDevice {
                adapter: info.name.clone(),
                source: crate::error::WgpuError::new(e),
            })?;
        drop(turn);
        let lost = Arc::new(Mutex::new(None));
        {
            let lost = Arc::clone(&lost);
            device.set_device_lost_callback(move |reason, message| {
                log::error!("wgpu-reduce: device lost ({reason:?}): {message}");
                let mut slot = lost.lock().unwrap_or_else(|e| e.into_inner());
                *slot = Some(format!("{reason:?}: {message}"));
            });
        }
        // wgpu's default handler panics. The library captures its own errors with error scopes;
        // anything else that reaches here is logged rather than allowed to abort the program.
        // On the web, where error scopes cannot be awaited inside a synchronous call, the
        // library's errors arrive here too: they are kept and returned by the next call.
        let deferred: Slot<Error> = Arc::default();
        {
            let deferred = Arc::clone(&deferred);
            device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
                log::error!("wgpu-reduce: uncaptured wgpu error: {e}");
                if cfg!(target_arch = "wasm32") {
                    let mut slot = deferred.lock().unwrap_or_else(|e| e.into_inner());
                    slot.get_or_insert(Error::from_wgpu(e, "running earlier work"));
                }
            }));
        }
        Self::build(device, queue, info, &options, (lost, deferred))
    }

    /// Makes a context on an application's device (see `Context::from_wgpu`).
    pub(crate) fn open_on(
        device: wgpu::Device,
        queue: wgpu::Queue,
        options: ContextOptions,
    ) -> Result<Context> {
        let info = device.adapter_info();
        Self::build(device, queue, info, &options, Default::default())
    }

    fn build(
        device: wgpu::Device,
        queue: wgpu::Queue,
        adapter: wgpu::AdapterInfo,
        options: &ContextOptions,
        (lost, deferred): (Slot<String>, Slot<Error>),
    ) -> Result<Context> {
        let caps = resolve::capabilities(device.features(), device.limits(), adapter, options);
        let tuning = resolve::tuning(options, &caps)?;
        let dummy = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgpu-reduce dummy"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let dummy_aux = slots::Slots::new("wgpu-reduce dummy aux", 16);
        let dummy_carries = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgpu-reduce dummy carries"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let clean_states =
            slots::Slots::new("wgpu-reduce clean states", (CLEAN_STATE_WORDS * 4) as u64);
        let probe_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("wgpu-reduce buffer check"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        // On a CPU adapter (lavapipe, llvmpipe) the "GPU" runs on the cores a spinning waiter
        // would take from it.
        let wait_spin = options.wait_spin.unwrap_or(match caps.adapter.device_type {
            wgpu::DeviceType::Cpu => std::time::Duration::ZERO,
            _ => std::time::Duration::from_millis(1),
        });
        let (pipeline_cache, cache_file) = open_pipeline_cache(&device, &caps.adapter, options);
        let kernels = Kernels::new(&device, caps.adapter.backend, pipeline_cache);
        Ok(Context {
            inner: Arc::new(Inner {
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                device,
                queue,
                caps,
                tuning,
                testing: options.testing.clone(),
                wait_spin,
                pool: Pool::with_cap(options.pool_cap_bytes),
                kernels,
                counters: Counters::default(),
                lost,
                deferred,
                dummy,
                dummy_aux,
                dummy_carries,
                clean_states,
                probe_layout,
                params: Mutex::default(),
                bind_groups: Mutex::default(),
                cache_file: cache_file.map(|f| (f, AtomicU64::new(0))),
                _teardown: DriverTurn,
            }),
        })
    }

    /// The largest result the blocking calls write straight into memory the CPU maps (0: none;
    /// see [`ContextOptions::mapped_results`]).
    pub(crate) fn mapped_result_bytes(&self) -> u64 {
        let caps = &self.inner.caps;
        match (
            caps.mapped_results,
            resolve::shares_memory(caps.adapter.device_type),
        ) {
            (false, _) => 0,
            (true, true) => u64::MAX,
            (true, false) => MAPPED_RESULT_MAX_BYTES,
        }
    }

    /// A uniform buffer holding `bytes` (the parameters of a submission's dispatches), made
    /// once and reused by every later submission with the same bytes: repeated calls on arrays
    /// of the same shapes upload nothing. Such a buffer is never written after it is made, so
    /// submissions in flight may share it. Up to [`PARAMETER_CACHE`] are kept, each of at most
    /// [`PARAMETER_CACHE_ENTRY_BYTES`] (256 to 1024 dispatches, by the device's uniform offset
    /// alignment; larger recordings get a buffer of their own each time), so the cache holds at
    /// most 16 MiB; beyond that count it starts afresh (buffers in flight stay alive until their
    /// work is done).
    ///
    /// A `Queue::write_buffer` per call cost about 6 µs of a 55 µs call on the H200 (a staging
    /// buffer and a copy in every submission).
    pub(crate) fn parameter_buffer(&self, bytes: &[u8]) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        let cacheable = bytes.len() <= PARAMETER_CACHE_ENTRY_BYTES;
        let mut cache = self.inner.params.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = cache.get(bytes) {
            return b.clone();
        }
        let b = self
            .inner
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("wgpu-reduce params"),
                contents: bytes,
                usage: wgpu::BufferUsages::UNIFORM,
            });
        self.inner
            .counters
            .parameter_buffers
            .fetch_add(1, Ordering::Relaxed);
        if cacheable {
            if cache.len() >= PARAMETER_CACHE {
                cache.clear();
            }
            cache.insert(bytes.to_vec(), b.clone());
        }
        b
    }

    pub(crate) fn id(&self) -> u64 {
        self.inner.id
    }

    /// Fails with [`Error::DeviceLost`] once the device has been lost (and, on the web, with
    /// the error an earlier call's work raised).
    pub(crate) fn check_alive(&self) -> Result<()> {
        // Only the web fills the deferred slot: native waits skip its lock (they call this in
        // their polling loops).
        if cfg!(target_arch = "wasm32") {
            let deferred = self
                .inner
                .deferred
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            if let Some(e) = deferred {
                return Err(e);
            }
        }
        let lost = self.inner.lost.lock().unwrap_or_else(|e| e.into_inner());
        match &*lost {
            Some(reason) => Err(Error::DeviceLost {
                reason: reason.clone(),
            }),
            None => Ok(()),
        }
    }

    /// After an operation failed in a way a lost device explains (a failed map): returns
    /// [`Error::DeviceLost`] if the device was lost. wgpu fails maps as soon as a device is
    /// destroyed, but calls the loss callback only in a later poll, once the queue is empty, so
    /// native backends poll for up to [`LOSS_REPORT_WAIT`] first.
    pub(crate) fn check_loss_after_failure(&self) -> Result<()> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let start = std::time::Instant::now();
            while start.elapsed() < LOSS_REPORT_WAIT {
                let _ = self.inner.device.poll(wgpu::PollType::Poll);
                self.check_alive()?;
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        self.check_alive()
    }

    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) fn mark_lost(&self, reason: String) {
        let mut lost = self.inner.lost.lock().unwrap_or_else(|e| e.into_inner());
        lost.get_or_insert(reason);
    }

    /// Runs `f` inside validation and out-of-memory error scopes and turns what they catch into
    /// [`Error`]s (`what` says what was being done).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn scoped<R>(&self, what: &str, f: impl FnOnce() -> Result<R>) -> Result<R> {
        self.check_alive()?;
        let device = &self.inner.device;
        let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let result = f();
        let validation = pollster::block_on(validation.pop());
        let oom = pollster::block_on(oom.pop());
        self.check_alive()?;
        if let Some(e) = oom {
            return Err(Error::from_wgpu(e, what));
        }
        if let Some(e) = validation {
            return Err(Error::from_wgpu(e, what));
        }
        result
    }

    /// On the web an error scope resolves only after this call has returned, so errors reach
    /// the context's uncaptured-error handler instead and are returned by the next call.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn scoped<R>(&self, _what: &str, f: impl FnOnce() -> Result<R>) -> Result<R> {
        self.check_alive()?;
        let result = f();
        self.check_alive()?;
        result
    }

    /// The pipeline of `variant`: from the cache, or compiled now inside an error scope (a
    /// shader the device rejects becomes an [`Error`] and is not cached).
    pub(crate) fn pipeline(
        &self,
        variant: crate::kernels::Kernel,
    ) -> Result<wgpu::ComputePipeline> {
        let kernels = &self.inner.kernels;
        if let Some(p) = kernels.cached(variant) {
            return Ok(p);
        }
        let pipeline = self.scoped(&format!("compiling {}", variant.label()), || {
            Ok(kernels.compile(&self.inner.device, variant))
        });
        #[cfg(not(target_arch = "wasm32"))]
        if let (Err(_), crate::kernels::Kernel::Axis(v)) = (&pipeline, variant) {
            // A map that does not compile: the compiler's message on the map's own lines.
            if let Some(map) = crate::ops::map::map_of(v.map) {
                self.check_map(&map)?;
            }
        }
        let pipeline = pipeline?;
        kernels.insert(variant, pipeline.clone());
        self.inner
            .counters
            .pipelines_compiled
            .fetch_add(1, Ordering::Relaxed);
        Ok(pipeline)
    }

    pub(crate) fn count_submission(&self) {
        self.inner
            .counters
            .submissions
            .fetch_add(1, Ordering::Relaxed);
    }
}

/// The pipeline cache of `options.pipeline_cache_dir` for this adapter, loaded from its file
/// if there is one, and the file's path; `None` where the device has no pipeline cache.
fn open_pipeline_cache(
    device: &wgpu::Device,
    adapter: &wgpu::AdapterInfo,
    options: &ContextOptions,
) -> (Option<wgpu::PipelineCache>, Option<std::path::PathBuf>) {
    let dir = match &options.pipeline_cache_dir {
        Some(dir) if cfg!(not(target_arch = "wasm32")) => dir,
        _ => return (None, None),
    };
    let key = wgpu::util::pipeline_cache_key(adapter);
    let (true, Some(key)) = (
        device.features().contains(wgpu::Features::PIPELINE_CACHE),
        key,
    ) else {
        log::info!(
            "wgpu-reduce: no pipeline cache on {} ({:?})",
            adapter.name,
            adapter.backend
        );
        return (None, None);
    };
    let file = dir.join(key);
    let data = match std::fs::read(&file) {
        Ok(d) => Some(d),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            log::warn!("wgpu-reduce: pipeline cache {file:?} not read: {e}");
            None
        }
    };
    log::info!(
        "wgpu-reduce: pipeline cache {file:?} ({} bytes)",
        data.as_ref().map_or(0, Vec::len)
    );
    // SAFETY: the data is what `PipelineCache::get_data` wrote for this adapter's key (or
    // nothing). wgpu checks its header (wgpu version, backend, vendor, device, driver version,
    // length) and the driver its own; with `fallback`, data that does not match gives an empty
    // cache instead of an error.
    let cache = unsafe {
        device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
            label: Some("wgpu-reduce"),
            data: data.as_deref(),
            fallback: true,
        })
    };
    (Some(cache), Some(file))
}

/// Writes the pipeline cache to its file if pipelines were compiled since it was last loaded
/// or written (a temporary file renamed over it, so a reader never sees half a file). Returns
/// the file written.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn save_pipeline_cache(inner: &Inner) -> Result<Option<std::path::PathBuf>> {
    let (Some((file, saved_at)), Some(cache)) = (&inner.cache_file, &inner.kernels.pipeline_cache)
    else {
        return Ok(None);
    };
    let compiled = inner.counters.pipelines_compiled.load(Ordering::Relaxed);
    if saved_at.load(Ordering::Relaxed) == compiled {
        return Ok(None);
    }
    let Some(data) = cache.get_data() else {
        return Ok(None);
    };
    let fail = |e: std::io::Error| Error::PipelineCache {
        path: file.clone(),
        detail: e.to_string(),
    };
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let temp = file.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&temp, &data).map_err(fail)?;
    std::fs::rename(&temp, file).map_err(fail)?;
    saved_at.store(compiled, Ordering::Relaxed);
    log::info!(
        "wgpu-reduce: wrote pipeline cache {file:?} ({} bytes)",
        data.len()
    );
    Ok(Some(file.clone()))
}

/// One wgpu instance per set of backends for every context the library makes. Objects of
/// different instances cannot be told apart by wgpu (a buffer of one instance used with a device
/// of another can alias an unrelated buffer, or make wgpu panic); within one instance, using a
/// buffer with another device is a validation error, which the library returns as an [`Error`].
fn shared_instance(backends: wgpu::Backends) -> wgpu::Instance {
    static INSTANCES: Mutex<Vec<(wgpu::Backends, wgpu::Instance)>> = Mutex::new(Vec::new());
    let mut instances = INSTANCES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, instance)) = instances.iter().find(|(b, _)| *b == backends) {
        return instance.clone();
    }
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends,
        ..wgpu::InstanceDescriptor::new_without_display_handle().with_env()
    });
    instances.push((backends, instance.clone()));
    instance
}

async fn select_adapter(
    instance: &wgpu::Instance,
    options: &ContextOptions,
) -> Result<wgpu::Adapter> {
    if let Some(wanted) = &options.adapter_name {
        let adapters = instance.enumerate_adapters(options.backends).await;
        let needle = wanted.to_lowercase();
        let mut names = Vec::new();
        for adapter in adapters {
            let name = adapter.get_info().name;
            if name.to_lowercase().contains(&needle) {
                return Ok(adapter);
            }
            names.push(name);
        }
        return Err(Error::AdapterNotFound {
            wanted: wanted.clone(),
            available: names,
        });
    }
    #[cfg(target_arch = "wasm32")]
    if !wgpu::util::is_browser_webgpu_supported().await {
        return Err(Error::NoWebGpu {
            detail: "navigator.gpu is missing or gives no adapter".into(),
        });
    }
    instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: options.power_preference,
            ..Default::default()
        })
        .await
        .map_err(|e| {
            if cfg!(target_arch = "wasm32") {
                Error::NoWebGpu {
                    detail: format!("navigator.gpu gave no adapter: {e}"),
                }
            } else {
                Error::NoAdapter {
                    backends: format!("{:?}", options.backends),
                    detail: format!(
                        "{e}; backends built into this program: {:?} (the crate's features \
                         metal, vulkan, dx12, gl and webgpu choose them)",
                        wgpu::Instance::enabled_backend_features()
                    ),
                }
            }
        })
}
