//! What an application chooses ([`ContextOptions`]) and what the library resolves from it and
//! from the device ([`Capabilities`], [`Tuning`]).

use crate::kernels::SCAN_ROW_WORKGROUP;

/// The largest result a blocking call writes straight into host memory on a GPU with memory of
/// its own, where [`ContextOptions::mapped_results`] is on (on adapters that share memory with
/// the CPU every result does).
pub const MAPPED_RESULT_MAX_BYTES: u64 = 4096;

/// How a [`Context`](crate::Context) picks its adapter and tunes its kernels.
///
/// `ContextOptions::default()` follows wgpu's environment conventions: `WGPU_BACKEND` (e.g.
/// `vulkan`, `metal`, `dx12`, `gl`), `WGPU_ADAPTER_NAME` (a case-insensitive substring of the
/// adapter name) and `WGPU_POWER_PREF` (`low`, `high`, `none`). Without them it asks for a
/// high-performance adapter on every backend compiled in.
#[derive(Debug, Clone)]
pub struct ContextOptions {
    /// Backends to search. Default: `WGPU_BACKEND`, else all.
    pub backends: wgpu::Backends,
    /// Power preference. Default: `WGPU_POWER_PREF`, else high performance.
    pub power_preference: wgpu::PowerPreference,
    /// Pick the first adapter whose name contains this (case-insensitive). Default:
    /// `WGPU_ADAPTER_NAME`.
    pub adapter_name: Option<String>,
    /// Whether the reduction kernels use subgroup operations (default [`Subgroups::Auto`]).
    pub subgroups: Subgroups,
    /// Workgroup size of the reduction kernels: 64, 128 or 256 (default 256, lowered if the
    /// device allows fewer invocations).
    pub workgroup_size: u32,
    /// Most workgroups in the first pass of a whole-array reduction (default 512). Each thread
    /// of that pass then reads `n / (workgroups * workgroup_size)` elements.
    pub max_workgroups: u32,
    /// Workgroups a pass of a reduction along axes, or of a scan, aims for (default 1024: the
    /// outputs times the splits of the reduced axis). A scan pass takes at least this many
    /// workgroups (or one per tile, if fewer), and more where `scan_tiles_per_workgroup` asks
    /// for them.
    pub target_workgroups: u32,
    /// Most tiles each workgroup of a scan's tile passes (tile per row, reduce, downsweep) loops
    /// over, loading the next while it scans the current (default 2; the look-back pass always
    /// takes one tile per workgroup).
    pub scan_tiles_per_workgroup: u32,
    /// Workgroup size of a scan pass whose rows are longer than one tile at `workgroup_size`
    /// but fit one tile at this size: [`SCAN_ROW_WORKGROUP`] (512, the default; any value below
    /// it turns this off). Taken only where the resolved workgroup size is 256 and the device
    /// allows 512 invocations (and their workgroup memory) per workgroup. Rows of 4097–8192
    /// elements (8189 where the row length is not a multiple of 4: such rows are tiled from the
    /// 16-byte boundary before them, which takes up to 3 elements of slack) are then scanned in
    /// one pass with no carry between tiles, on 256 invocations of 32 elements each
    /// (`ScanVariant::invocations`).
    pub scan_row_workgroup_size: u32,
    /// Workgroup size of the decoupled look-back pass over one row longer than
    /// `scan_lookback_max_tiles` tiles at `workgroup_size`: [`SCAN_ROW_WORKGROUP`] (512, the
    /// default; any value below it turns this off), for tiles twice as long, half as many of
    /// them, and a look-back window over twice as many predecessors. Taken under the same
    /// conditions as `scan_row_workgroup_size`; rows of a few tiles keep `workgroup_size`.
    /// [`ScanAlgorithm::Auto`](crate::ScanAlgorithm::Auto) then takes the look-back for one row
    /// of up to `scan_lookback_wide_max_tiles` of the larger tiles. [`SCAN_LOOKBACK_DEEP`]
    /// (1024) takes tiles of 16384 on 512 invocations of 8 vec4 slots, with a window over 512
    /// predecessors (Auto's limit then counts these tiles).
    ///
    /// [`SCAN_LOOKBACK_DEEP`]: crate::kernels::SCAN_LOOKBACK_DEEP
    pub scan_lookback_workgroup_size: u32,
    /// The scan inputs (bytes) whose reduce-then-scan passes take reversed runs (default 32 MiB
    /// to 256 MiB): each workgroup of the tile reduction and of the downsweep takes a contiguous
    /// run of tiles, the reduction from the array's start and the downsweep from its end, so
    /// the downsweep first reads what the reduction read last, while it may still be in the L2
    /// cache. Other inputs take tiles `w, w + workgroups, ...` in both passes (every input does
    /// with an empty range such as `1..=0`).
    pub scan_reversed_runs_bytes: std::ops::RangeInclusive<u64>,
    /// [`ScanAlgorithm::Auto`](crate::ScanAlgorithm::Auto) takes the decoupled look-back for rows
    /// of 2 to this many tiles, however many rows there are (default 4).
    pub scan_lookback_row_tiles: usize,
    /// ... and for longer rows while the whole scan has at most this many tiles (default 128;
    /// see `Recorder::scan_algorithm`).
    pub scan_lookback_max_tiles: usize,
    /// One row longer than `scan_lookback_max_tiles` tiles at `workgroup_size`, scanned at
    /// `scan_lookback_workgroup_size` (default 256 of its larger tiles: 2^21 f32 elements):
    /// [`ScanAlgorithm::Auto`](crate::ScanAlgorithm::Auto) takes the look-back for a row of
    /// at most this many of its tiles. On Vulkan and DX12 a scan of one row of more than
    /// `scan_lookback_row_tiles` tiles (of either size) that writes an output an earlier
    /// operation of its recording used while reading an input none of them wrote takes
    /// reduce-then-scan: such a scan waits for the work before it, but the first pass of
    /// reduce-then-scan does not, and runs beside that work (on Metal no dispatch runs
    /// beside another).
    pub scan_lookback_wide_max_tiles: usize,
    /// The decoupled look-back over one row of at most this many tiles at `workgroup_size`
    /// (default 48; 0 turns this off) runs at half that workgroup size, where that is one of
    /// [`WORKGROUP_SIZES`](crate::kernels::WORKGROUP_SIZES): tiles half as long, twice as many.
    pub scan_lookback_small_tiles: usize,
    /// Rows of at most this many elements (of arrays of more than one row) are scanned one row
    /// per invocation, element by element, in one pass (default 64).
    pub scan_serial_max_len: usize,
    /// A reduce-then-scan of at most this many tiles takes two passes instead of three: its
    /// downsweep combines the unscanned totals before its tiles itself, so no pass scans the
    /// totals (default 2048, 2^23 elements at the default workgroup size; 0 turns it off). A
    /// scan of one row does so for any number of tiles up to this: both passes take at most
    /// 4 × the workgroup size workgroups, each a contiguous run of tiles (two tiles or more
    /// where that leaves at least half of `target_workgroups` runs), and each workgroup of the
    /// downsweep combines the totals of the runs before its own (at most 4 per invocation). Rows
    /// of a scan of many rows do so while the scan has at most 4 tiles per invocation, each tile
    /// combining the totals of the tiles before it in its row. Only the scan of the input itself
    /// does this, never the scan of another scan's totals.
    pub scan_fused_max_tiles: usize,
    /// A whole-array reduction (sum, prod, min, max, mean) that would take two passes, the
    /// second combining at most 1,024 workgroups' values, takes one (default true): each
    /// workgroup publishes its value, and the last to finish combines them all and writes the
    /// result, so no second pass waits for the first. Nothing waits on another workgroup's
    /// progress: a value not yet visible is computed again by the last workgroup, in the same
    /// order, so the result has the same bits either way (it may differ in the last bits from
    /// the two passes', which combine the values in another order; both are within
    /// [`Tuning::f32_sum_error_bound`]).
    pub reduce_last_group: bool,
    /// Testing aid: the last workgroup never sees a published value and computes them all
    /// again.
    #[doc(hidden)]
    pub reduce_hide_partials: bool,
    /// With `reduce_last_group`, the whole-array reductions of f32 that take the flat first
    /// pass (argmin/argmax, aminmax, the 1- and 2-norm, nansum, any, all, count_nonzero) are
    /// one pass too, where it has at most 512 workgroups (default true): its last workgroup
    /// combines the others' states, with the same guarantees as `reduce_last_group`.
    pub reduce_last_group_flat: bool,
    /// Encode a recording's dispatches level by level (default false). A dispatch's level is one more than the highest of the earlier dispatches it
    /// must follow (those that wrote a buffer it uses, or used one it writes); the dispatches
    /// of a level keep the order recorded, and before a level of several, the buffers they only
    /// read that an earlier level wrote are made read-only storage at once
    /// (`wgpu::ComputePass::transition_resources`), where that spares two or more of them their
    /// own barrier; a recording whose levels would wait at no fewer barriers than its order
    /// recorded keeps that order. So operations of several passes side by side
    /// (reduce-then-scan scans, reductions of two passes) wait at one barrier per pass instead
    /// of one per operation and pass: wgpu puts a barrier before each dispatch that reads what
    /// an earlier one wrote, which on Vulkan and DX12 waits for every dispatch before it. Ten reduce-then-scan scans of one input side by side: 10 barriers in the
    /// order recorded, 1 levelled ([`Recorder::barriers`](crate::Recorder::barriers)). The
    /// results are the same either way. In a browser the transitions are the browser's.
    pub level_dispatches: bool,
    /// Fill every temporary buffer with the byte 0xFF (f32 NaN, i32 -1, u32::MAX) when it is
    /// leased, so that an element a kernel forgot to write shows up. For tests; costs a write.
    pub poison_temporaries: bool,
    /// Lowers the largest storage binding the library will use below the device's
    /// `max_storage_buffer_binding_size` (for tests of the size checks; `None` keeps the device's).
    pub max_storage_binding_bytes: Option<u64>,
    /// Most bytes the buffer pool keeps (leased plus free). Free buffers are released, largest
    /// first, before the pool would grow past it; leases that one recording needs at once are
    /// always served, so only those can take the pool above the cap. Default `None`: no cap.
    pub pool_cap_bytes: Option<u64>,
    /// How long [`Submission::wait`](crate::Submission::wait) polls the device without blocking
    /// before it blocks in the driver. `None` (the default): 1 ms, or zero on CPU adapters such
    /// as lavapipe, whose work runs on the cores a spin would take; `Some(d)`: exactly `d` (zero:
    /// block at once). Spinning answers sooner after short work, at the cost of a busy core
    /// while it spins.
    pub wait_spin: Option<std::time::Duration>,
    /// Whether uploads write straight into the array's memory, with no staging copy: buffers
    /// made with `MAP_WRITE` and mapped at creation (wgpu's `MAPPABLE_PRIMARY_BUFFERS`).
    /// `None` (the default): where the adapter shares memory with the CPU (an integrated GPU,
    /// such as Apple Silicon's, or a CPU adapter such as lavapipe) and has that feature;
    /// `Some(false)`: never; `Some(true)`: wherever the feature exists (on a discrete GPU such
    /// buffers may live in memory the GPU reads more slowly). See [`Capabilities::unified_memory`].
    pub unified_memory: Option<bool>,
    /// Whether the blocking calls that return values ([`Context::sum`](crate::Context::sum),
    /// [`Context::sum_axes`](crate::Context::sum_axes), [`Context::dot`](crate::Context::dot),
    /// ...) have their last pass write the result into a buffer the CPU maps (`MAP_READ`, wgpu's
    /// `MAPPABLE_PRIMARY_BUFFERS`), so that no copy into a staging buffer runs before the read.
    /// `None` (the default) and `Some(true)`: wherever the adapter has that feature (native
    /// Vulkan, Metal, DX12; not the web); `Some(false)`: never. On a GPU with memory of its own,
    /// only results of at most [`MAPPED_RESULT_MAX_BYTES`] take this path: the kernel writes
    /// them into host memory over the bus. Arrays the caller reads with
    /// [`Context::read`](crate::Context::read) or a [`Recorder`](crate::Recorder) are still
    /// copied: mapping an array the caller holds would make any other use of it fail while it
    /// is mapped. See [`Capabilities::mapped_results`].
    pub mapped_results: Option<bool>,
    /// A directory where the context keeps the driver's compiled pipelines between processes
    /// (wgpu's `PipelineCache`, on backends that have one: Vulkan). The context loads the file
    /// for its adapter (`wgpu::util::pipeline_cache_key`) when it is made, and writes it back
    /// when [`Context::prepare`](crate::Context::prepare) or
    /// [`Context::save_pipeline_cache`](crate::Context::save_pipeline_cache) is called and when
    /// the last clone of the context is dropped, if it compiled anything new. Data of another
    /// driver version or adapter is ignored. Default: `WGPU_REDUCE_PIPELINE_CACHE`, else none.
    /// (Drivers keep caches of their own too, e.g. Mesa's and NVIDIA's on-disk shader caches;
    /// this one works whether or not they do.)
    pub pipeline_cache_dir: Option<std::path::PathBuf>,
    /// How wgpu's allocator trades memory for speed (default `MemoryHints::Performance`: large
    /// memory blocks; `MemoryUsage` for memory-constrained devices).
    pub memory_hints: wgpu::MemoryHints,
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
            workgroup_size: 256,
            max_workgroups: 512,
            target_workgroups: 1024,
            scan_tiles_per_workgroup: 2,
            scan_row_workgroup_size: SCAN_ROW_WORKGROUP,
            scan_lookback_workgroup_size: SCAN_ROW_WORKGROUP,
            scan_reversed_runs_bytes: (32 << 20)..=(256 << 20),
            scan_lookback_row_tiles: 4,
            scan_lookback_max_tiles: 128,
            scan_lookback_wide_max_tiles: 256,
            scan_lookback_small_tiles: 48,
            scan_serial_max_len: 64,
            scan_fused_max_tiles: 2048,
            reduce_last_group: true,
            reduce_hide_partials: false,
            reduce_last_group_flat: true,
            level_dispatches: false,
            poison_temporaries: false,
            max_storage_binding_bytes: None,
            pool_cap_bytes: None,
            wait_spin: None,
            memory_hints: wgpu::MemoryHints::Performance,
            unified_memory: None,
            mapped_results: None,
            pipeline_cache_dir: std::env::var_os("WGPU_REDUCE_PIPELINE_CACHE")
                .filter(|s| !s.is_empty())
                .map(std::path::PathBuf::from),
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
    /// Uploads write straight into arrays' memory (see [`ContextOptions::unified_memory`]).
    pub unified_memory: bool,
    /// The blocking calls that return values read them from the buffer their kernel wrote,
    /// with no copy (see [`ContextOptions::mapped_results`]).
    pub mapped_results: bool,
    /// The device's limits (the adapter's own limits, not wgpu's conservative defaults), with
    /// [`ContextOptions::max_storage_binding_bytes`] applied.
    pub limits: wgpu::Limits,
}

/// The kernel settings in force, resolved from [`ContextOptions`] and [`Capabilities`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tuning {
    /// Workgroup size of reduction kernels.
    pub workgroup_size: u32,
    /// Most workgroups in the first pass of a whole-array reduction.
    pub max_workgroups: u32,
    /// Workgroups a pass along axes, or of a scan, aims for.
    pub target_workgroups: u32,
    /// Most tiles per workgroup in a scan's tile passes.
    pub scan_tiles_per_workgroup: u32,
    /// Workgroup size of a scan pass over rows of one tile at this size but more than one at
    /// `workgroup_size` ([`SCAN_ROW_WORKGROUP`] or `workgroup_size`).
    pub scan_row_workgroup_size: u32,
    /// Workgroup size of the look-back pass over one long row ([`SCAN_ROW_WORKGROUP`],
    /// [`SCAN_LOOKBACK_DEEP`](crate::kernels::SCAN_LOOKBACK_DEEP) or `workgroup_size`; see
    /// [`ContextOptions::scan_lookback_workgroup_size`]).
    pub scan_lookback_workgroup_size: u32,
    /// Smallest and largest scan input (bytes) whose reduce-then-scan passes take reversed
    /// runs (none where the first is larger).
    pub scan_reversed_runs_bytes: (u64, u64),
    /// See [`ContextOptions::scan_lookback_row_tiles`].
    pub scan_lookback_row_tiles: usize,
    /// See [`ContextOptions::scan_lookback_max_tiles`].
    pub scan_lookback_max_tiles: usize,
    /// See [`ContextOptions::scan_lookback_wide_max_tiles`].
    pub scan_lookback_wide_max_tiles: usize,
    /// See [`ContextOptions::scan_lookback_small_tiles`].
    pub scan_lookback_small_tiles: usize,
    /// See [`ContextOptions::scan_serial_max_len`].
    pub scan_serial_max_len: usize,
    /// See [`ContextOptions::scan_fused_max_tiles`].
    pub scan_fused_max_tiles: usize,
    /// See [`ContextOptions::reduce_last_group`].
    pub reduce_last_group: bool,
    /// See [`ContextOptions::reduce_hide_partials`].
    #[doc(hidden)]
    pub reduce_hide_partials: bool,
    /// See [`ContextOptions::reduce_last_group_flat`].
    pub reduce_last_group_flat: bool,
    /// See [`ContextOptions::level_dispatches`].
    pub level_dispatches: bool,
    /// Whether subgroup variants are used.
    pub subgroups: bool,
}

impl Tuning {
    /// Whether whole-array reductions that take the flat first pass finish in it (its last
    /// workgroup combining), where they have few enough workgroups.
    pub(crate) fn flat_last_group(&self) -> bool {
        self.reduce_last_group && self.reduce_last_group_flat
    }

    /// Worst-case error of an f32 sum of `n` values whose magnitudes add up to `sum_abs`, against
    /// the exact sum, with this tuning. The kernels add each vec4 lane's elements sequentially,
    /// then combine lanes in trees, so the error is at most `(per_lane + tree_depth) · u · Σ|x|`
    /// with `u = 2^-24`. A first pass has up to `4 · workgroup_size · max_workgroups` lanes and
    /// gives each thread at least 4 vec4 words before adding workgroups, so
    /// `per_lane ≤ max(n / lanes, 4) + 1`; `tree_depth ≤ log2(n) + 3`, plus, where the last
    /// workgroup combines the others' values ([`ContextOptions::reduce_last_group`]), the
    /// `max_workgroups / workgroup_size` values each of its invocations adds in turn.
    pub fn f32_sum_error_bound(&self, n: usize, sum_abs: f64) -> f64 {
        let u = f64::from(f32::EPSILON) / 2.0;
        let combine = match self.reduce_last_group {
            true => f64::from(self.max_workgroups.div_ceil(self.workgroup_size)),
            false => 0.0,
        };
        let depth = (n.max(1) as f64).log2().ceil() + 3.0 + combine;
        let lanes = 4.0 * f64::from(self.workgroup_size) * f64::from(self.max_workgroups);
        let per_lane = (n as f64 / lanes).ceil().max(4.0) + 1.0;
        (per_lane + depth) * u * sum_abs
    }
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
    /// Reads that mapped a blocking call's result buffer itself, with no copy (see
    /// [`ContextOptions::mapped_results`]).
    pub mapped_reads: u64,
}
