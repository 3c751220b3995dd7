//! What an application chooses ([`ContextOptions`]) and what the library detects on the device
//! ([`Capabilities`]).

use crate::plan::tuning::Tuning;

/// The largest result a one-step call writes straight into host memory on a GPU with memory of
/// its own, where [`ContextOptions::mapped_results`] is on (on adapters that share memory with
/// the CPU every result does).
pub const MAPPED_RESULT_MAX_BYTES: u64 = 4096;

/// What an application chooses: which adapter, which device features the library may use,
/// how results come back, and how much memory it keeps.
///
/// `ContextOptions::default()` follows wgpu's environment conventions: `WGPU_BACKEND` (e.g.
/// `vulkan`, `metal`, `dx12`, `gl`), `WGPU_ADAPTER_NAME` (a case-insensitive substring of the
/// adapter name) and `WGPU_POWER_PREF` (`low`, `high`, `none`). Without them it asks for a
/// high-performance adapter on every backend compiled in. Set fields on the default, or chain
/// the `with_*` methods:
///
/// ```
/// use wgpu_reduce::{ContextOptions, Subgroups};
/// let options = ContextOptions::default()
///     .with_backends(wgpu_reduce::wgpu::Backends::VULKAN)
///     .with_subgroups(Subgroups::Off)
///     .with_pool_cap_bytes(Some(256 << 20));
/// assert_eq!(options.subgroups, Subgroups::Off);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ContextOptions {
    /// Backends to search. Default: `WGPU_BACKEND`, else all.
    pub backends: wgpu::Backends,
    /// Power preference. Default: `WGPU_POWER_PREF`, else high performance.
    pub power_preference: wgpu::PowerPreference,
    /// Take the first adapter whose name contains this (case-insensitive). Default:
    /// `WGPU_ADAPTER_NAME`.
    pub adapter_name: Option<String>,
    /// Whether kernels use subgroup operations (default [`Subgroups::Auto`]).
    pub subgroups: Subgroups,
    /// Most bytes the buffer pool keeps (leased plus free); free buffers are released, largest
    /// first, before it would grow past this. Default `None`: no cap.
    pub pool_cap_bytes: Option<u64>,
    /// How long [`Submission::wait`](crate::Submission::wait) polls before it blocks in the
    /// driver. `None` (default): 1 ms, zero on CPU adapters; `Some(d)`: exactly `d`.
    pub wait_spin: Option<std::time::Duration>,
    /// Uploads write straight into an array's memory, with no staging copy. `None` (default):
    /// where the adapter shares memory with the CPU; see [`Capabilities::unified_memory`].
    pub unified_memory: Option<bool>,
    /// Blocking calls that return values read them from the buffer their kernel wrote, with no
    /// copy (results of at most [`MAPPED_RESULT_MAX_BYTES`] on a discrete GPU). `None` (default):
    /// wherever the adapter can map such buffers; see [`Capabilities::mapped_results`].
    pub mapped_results: Option<bool>,
    /// A directory where compiled pipelines are kept between processes (wgpu's `PipelineCache`,
    /// on Vulkan), saved by [`Context::save_pipeline_cache`](crate::Context::save_pipeline_cache)
    /// and when the last clone of the context drops. Default: `WGPU_REDUCE_PIPELINE_CACHE`.
    pub pipeline_cache_dir: Option<std::path::PathBuf>,
    /// How wgpu's allocator trades memory for speed (default `MemoryHints::Performance`).
    pub memory_hints: wgpu::MemoryHints,
    /// Kernel settings to start from instead of [`Tuning::default`], for benchmarks; resolved
    /// within the device's limits like the defaults. Default `None`.
    pub tuning: Option<Tuning>,
    /// Switches for the library's own tests.
    #[doc(hidden)]
    pub testing: Testing,
}

impl Default for ContextOptions {
    fn default() -> Self {
        ContextOptions {
            backends: wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all()),
            power_preference: wgpu::PowerPreference::from_env()
                .unwrap_or(wgpu::PowerPreference::HighPerformance),
            adapter_name: std::env::var("WGPU_ADAPTER_NAME")
                .ok()
                .filter(|s| !s.is_empty()),
            subgroups: Subgroups::Auto,
            pool_cap_bytes: None,
            wait_spin: None,
            unified_memory: None,
            mapped_results: None,
            pipeline_cache_dir: std::env::var_os("WGPU_REDUCE_PIPELINE_CACHE")
                .filter(|s| !s.is_empty())
                .map(std::path::PathBuf::from),
            memory_hints: wgpu::MemoryHints::Performance,
            tuning: None,
            testing: Testing::default(),
        }
    }
}

impl ContextOptions {
    /// Sets [`backends`](Self::backends).
    pub fn with_backends(mut self, backends: wgpu::Backends) -> Self {
        self.backends = backends;
        self
    }

    /// Sets [`power_preference`](Self::power_preference).
    pub fn with_power_preference(mut self, power_preference: wgpu::PowerPreference) -> Self {
        self.power_preference = power_preference;
        self
    }

    /// Sets [`adapter_name`](Self::adapter_name).
    pub fn with_adapter_name(mut self, adapter_name: Option<String>) -> Self {
        self.adapter_name = adapter_name;
        self
    }

    /// Sets [`subgroups`](Self::subgroups).
    pub fn with_subgroups(mut self, subgroups: Subgroups) -> Self {
        self.subgroups = subgroups;
        self
    }

    /// Sets [`pool_cap_bytes`](Self::pool_cap_bytes).
    pub fn with_pool_cap_bytes(mut self, pool_cap_bytes: Option<u64>) -> Self {
        self.pool_cap_bytes = pool_cap_bytes;
        self
    }

    /// Sets [`wait_spin`](Self::wait_spin).
    pub fn with_wait_spin(mut self, wait_spin: Option<std::time::Duration>) -> Self {
        self.wait_spin = wait_spin;
        self
    }

    /// Sets [`unified_memory`](Self::unified_memory).
    pub fn with_unified_memory(mut self, unified_memory: Option<bool>) -> Self {
        self.unified_memory = unified_memory;
        self
    }

    /// Sets [`mapped_results`](Self::mapped_results).
    pub fn with_mapped_results(mut self, mapped_results: Option<bool>) -> Self {
        self.mapped_results = mapped_results;
        self
    }

    /// Sets [`pipeline_cache_dir`](Self::pipeline_cache_dir).
    pub fn with_pipeline_cache_dir(mut self, dir: Option<std::path::PathBuf>) -> Self {
        self.pipeline_cache_dir = dir;
        self
    }

    /// Sets [`memory_hints`](Self::memory_hints).
    pub fn with_memory_hints(mut self, memory_hints: wgpu::MemoryHints) -> Self {
        self.memory_hints = memory_hints;
        self
    }

    /// Sets [`tuning`](Self::tuning) (for benchmarks).
    pub fn with_tuning(mut self, tuning: Tuning) -> Self {
        self.tuning = Some(tuning);
        self
    }

    /// Sets the switches for the library's own tests.
    #[doc(hidden)]
    pub fn with_testing(mut self, testing: Testing) -> Self {
        self.testing = testing;
        self
    }
}

/// Switches for the library's own tests; not part of the API.
#[doc(hidden)]
#[derive(Debug, Clone, Default)]
pub struct Testing {
    /// Fill every temporary buffer with the byte 0xFF (f32 NaN, i32 -1, u32::MAX) when it is
    /// leased, so that an element a kernel forgot to write shows up.
    pub poison_temporaries: bool,
    /// The one-pass finish of reductions never sees a published value: the last workgroup
    /// computes them all again.
    pub hide_partials: bool,
    /// Lowers the largest storage binding the library uses below the device's, to test the
    /// cutting of arrays into pieces on small inputs.
    pub max_storage_binding_bytes: Option<u64>,
}

impl Testing {
    /// Poisoned temporaries, nothing else.
    pub fn poisoned() -> Testing {
        Testing {
            poison_temporaries: true,
            ..Testing::default()
        }
    }
}

/// Whether kernels use subgroup operations for their workgroup step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Subgroups {
    /// Use them where the device has `Features::SUBGROUP`, else the shared-memory fallback.
    #[default]
    Auto,
    /// Always use the shared-memory fallback (every device runs it).
    Off,
    /// Use them, and fail with [`Error::FeatureMissing`](crate::Error::FeatureMissing) where the device lacks them.
    Require,
}

/// What the device can do, detected once when the [`Context`](crate::Context) is made.
#[derive(Debug, Clone)]
pub struct Capabilities {
    /// The adapter (name, backend, driver).
    pub adapter: wgpu::AdapterInfo,
    /// Subgroup operations (`Features::SUBGROUP`) are enabled on the device.
    pub subgroups: bool,
    /// Smallest subgroup size the adapter may use (0 if unknown).
    pub subgroup_min_size: u32,
    /// Largest subgroup size the adapter may use (0 if unknown).
    pub subgroup_max_size: u32,
    /// 16-bit floats in shaders (`Features::SHADER_F16`) are enabled.
    pub shader_f16: bool,
    /// Timestamp queries (`Features::TIMESTAMP_QUERY`) are enabled, so GPU time can be measured.
    pub timestamps: bool,
    /// Uploads write straight into arrays' memory: buffers made with `MAP_WRITE` and mapped at
    /// creation (wgpu's `MAPPABLE_PRIMARY_BUFFERS`), no staging copy. By default where the
    /// adapter shares memory with the CPU (an integrated GPU such as Apple Silicon's, or a CPU
    /// adapter such as lavapipe); on a discrete GPU such buffers may live in memory the GPU
    /// reads more slowly ([`ContextOptions::unified_memory`]).
    pub unified_memory: bool,
    /// The one-step calls ([`Context::run`](crate::Context::run),
    /// [`Context::run_async`](crate::Context::run_async)) have each operation's last pass
    /// write the result into a buffer the CPU maps (`MAP_READ`), so no copy runs before the
    /// read. On a GPU with memory of its own only results of at most
    /// [`MAPPED_RESULT_MAX_BYTES`] do, written into host memory over the bus. Arrays the caller
    /// reads with [`Context::read`](crate::Context::read) or a [`Recorder`](crate::Recorder)
    /// are still copied: mapping an array the caller holds would make any other use of it fail
    /// while mapped ([`ContextOptions::mapped_results`]).
    pub mapped_results: bool,
    /// The device's limits (the adapter's own limits, not wgpu's conservative defaults).
    pub limits: wgpu::Limits,
}

/// Counters of the work the library has issued (for tests and diagnostics).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContextStats {
    /// `Queue::submit` calls made by the library.
    pub submissions: u64,
    /// Compute dispatches recorded (into the library's or a caller's encoder).
    pub dispatches: u64,
    /// Host round trips that waited for a buffer map (one per [`Submission::wait`] with reads).
    ///
    /// [`Submission::wait`]: crate::Submission::wait
    pub readbacks: u64,
    /// Compute pipelines compiled (each variant once).
    pub pipelines_compiled: u64,
    /// Uniform buffers of kernel parameters made: submissions whose dispatches have the same
    /// parameters (the same operations on arrays of the same shapes) share one.
    pub parameter_buffers: u64,
    /// Bind groups made: a call repeated on the same arrays reuses those of the last one (up
    /// to 64 are kept, while the caller's arrays they bind are alive).
    pub bind_groups: u64,
    /// Reads that mapped a one-step call's result buffer itself, with no copy (see
    /// [`ContextOptions::mapped_results`]).
    pub mapped_reads: u64,
}
