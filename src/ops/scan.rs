//! Prefix scans: inclusive and exclusive add, min and max, of a whole array or of each row along
//! the last axis.
//!
//! Two algorithms, both recorded as passes of one compute pass (so a scan and the reductions
//! around it share one submission):
//!
//! - **Reduce-then-scan** ([`ScanAlgorithm::ReduceThenScan`]): each tile of `4 · 4 · workgroup`
//!   elements is reduced to its total, the totals are scanned (the same algorithm, recursively),
//!   and a last pass scans each tile again starting from its scanned total. No workgroup ever
//!   waits for another; deterministic; reads the input twice.
//! - **Decoupled look-back with fallback** ([`ScanAlgorithm::DecoupledFallback`], Smith, Levien
//!   and Owens, SPAA 2025): one pass. Each tile publishes its total, then walks back over its
//!   predecessors' published states, a window of one state per invocation at a time, until it
//!   finds an inclusive prefix. A tile that finds the nearest unread predecessor not ready after
//!   a bounded number of steps reduces that predecessor's tile itself
//!   (the input is read-only) and goes on, so progress never depends on other workgroups being
//!   scheduled — Metal gives no forward-progress guarantee. Each state is a flag and a 32-bit value
//!   split over two 32-bit atomic words, so no 64-bit atomics are needed. Reads the input once,
//!   except where a tile falls back: that tile then reads its own input again and scans it after
//!   the walk, rather than keeping its scanned values in registers across a fallback that holds
//!   a second tile (keeping them cost the look-back 17 % on an H200 although the fallback never
//!   ran there). Float sums may differ in the last bits between runs (the order in which tiles' totals are
//!   combined depends on timing).
//!
//! Rows of at most [`SERIAL_MAX_LEN`] elements are scanned one row per invocation, element by
//! element (one pass, no barriers); longer rows that fit one tile take the smallest workgroup
//! whose tile holds them (one pass).

use crate::array::{padded_bytes, GpuArray, RawArray};
use crate::context::{Context, WORKGROUP_SIZES};
use crate::element::{DType, Element};
use crate::error::{Error, Result};
use crate::kernels::{scan_tile_len, Kernel, ScanAccess, ScanMode, ScanVariant};
use crate::recorder::Recorder;

/// The operation of a scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScanOp {
    /// Running sum (`cumsum`). Integers wrap modulo 2^32; floats accumulate in f32.
    Add,
    /// Running minimum (`cummin`'s values). NaN propagates from its position on (as the quiet
    /// NaN `0x7fc00000`). Floats are ordered as IEEE 754-2019 `minimum` orders them: -0.0 below
    /// +0.0, so the minimum of the two is -0.0 whichever comes first (NumPy's
    /// `minimum.accumulate` keeps the first of two equal zeros).
    Min,
    /// Running maximum (`cummax`'s values). NaN propagates from its position on (as the quiet
    /// NaN `0x7fc00000`). Floats are ordered as IEEE 754-2019 `maximum` orders them: the
    /// maximum of -0.0 and +0.0 is +0.0 whichever comes first.
    Max,
}

impl ScanOp {
    /// Every scan operation.
    pub const ALL: [ScanOp; 3] = [ScanOp::Add, ScanOp::Min, ScanOp::Max];

    /// Lower-case name (`add`, `min`, `max`).
    pub const fn name(self) -> &'static str {
        match self {
            ScanOp::Add => "add",
            ScanOp::Min => "min",
            ScanOp::Max => "max",
        }
    }

    /// Parses a name as printed by [`name`](Self::name) (also `sum`, `cumsum`, `cummin`,
    /// `cummax`).
    pub fn parse(s: &str) -> Option<ScanOp> {
        match s {
            "add" | "sum" | "cumsum" => Some(ScanOp::Add),
            "min" | "cummin" => Some(ScanOp::Min),
            "max" | "cummax" => Some(ScanOp::Max),
            _ => None,
        }
    }

    /// The result type of a scan of `input`: f32 for f16 and bf16 (accumulated in f32), the
    /// input type otherwise.
    pub const fn output(self, input: DType) -> DType {
        if input.is_half() {
            DType::F32
        } else {
            input
        }
    }
}

/// Which scan algorithm runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ScanAlgorithm {
    /// The library's choice for this adapter and row length (see [`Context::scan_algorithm`]).
    #[default]
    Auto,
    /// Tile totals, a scan of them, and a downsweep: never waits, deterministic.
    ReduceThenScan,
    /// Single pass, decoupled look-back with fallback.
    DecoupledFallback,
}

/// What a scan computes: operation, inclusive or exclusive, axis and algorithm.
///
/// ```no_run
/// # fn main() -> wgpu_reduce::Result<()> {
/// use wgpu_reduce::{Context, Scan, ScanOp};
/// let ctx = Context::new()?;
/// let x = ctx.upload(&[3i32, 1, 4, 1, 5])?;
/// let mut rec = ctx.recorder();
/// let inc = rec.scan::<i32, i32>(&x, &Scan::new(ScanOp::Add))?;
/// let exc = rec.scan::<i32, i32>(&x, &Scan::new(ScanOp::Add).exclusive(true))?;
/// let hi = rec.scan::<i32, i32>(&x, &Scan::new(ScanOp::Max))?;
/// let t = [rec.read(&inc)?, rec.read(&exc)?, rec.read(&hi)?];
/// let r = rec.submit()?.wait()?;
/// assert_eq!(r.get(&t[0])?, vec![3, 4, 8, 9, 14]);
/// assert_eq!(r.get(&t[1])?, vec![0, 3, 4, 8, 9]);
/// assert_eq!(r.get(&t[2])?, vec![3, 3, 4, 4, 5]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// The operation.
    pub op: ScanOp,
    /// Exclusive: element i gets the combination of elements before i (the identity — 0, +inf,
    /// -inf, or the integer type's extreme — for the first element of each row).
    pub exclusive: bool,
    /// The axis scanned; only the last axis is supported (`-1`, the default, or `ndim - 1`).
    pub axis: i32,
    /// The algorithm.
    pub algorithm: ScanAlgorithm,
    /// Look-back only: steps (each reads a window of predecessors' states) that find the nearest
    /// unread predecessor not ready before the workgroup reduces that predecessor's tile itself
    /// (default 8).
    pub spin_limit: u32,
    /// Look-back only, a testing aid: ignore every published state and always fall back (each
    /// tile then reduces every tile before it in its row: quadratic work, still correct).
    pub force_fallback: bool,
    /// Look-back only, a testing aid: tiles after the first of each row publish only their own
    /// totals, never inclusive prefixes, so every look-back walks back to the row's first tile.
    pub aggregates_only: bool,
    /// Look-back only, a testing aid: the published states of every third tile (tiles `t` with
    /// `t % 3 == 1`) are never seen as ready, so look-backs consume windows in part, wait, and
    /// fall back past those tiles.
    pub hide_some: bool,
    /// Look-back only, for measurements (results are wrong): bit 0 replaces the first four
    /// outputs of each tile after its row's first with the look-back's counts (window steps,
    /// steps that consumed nothing, fallbacks, states consumed); bit 1 skips the wait (the
    /// carry is the identity) to time everything else.
    #[doc(hidden)]
    pub diagnostics: u32,
}

impl Scan {
    /// An inclusive scan of `op` along the last axis, algorithm chosen by the library.
    pub const fn new(op: ScanOp) -> Scan {
        Scan {
            op,
            exclusive: false,
            axis: -1,
            algorithm: ScanAlgorithm::Auto,
            spin_limit: 8,
            force_fallback: false,
            aggregates_only: false,
            hide_some: false,
            diagnostics: 0,
        }
    }

    /// Exclusive (`true`) or inclusive (`false`, the default).
    pub const fn exclusive(mut self, exclusive: bool) -> Scan {
        self.exclusive = exclusive;
        self
    }

    /// The axis to scan (must be the last; negative counts from the end).
    pub const fn axis(mut self, axis: i32) -> Scan {
        self.axis = axis;
        self
    }

    /// Picks the algorithm.
    pub const fn algorithm(mut self, algorithm: ScanAlgorithm) -> Scan {
        self.algorithm = algorithm;
        self
    }

    /// Look-back: reads of a not-ready predecessor before falling back.
    pub const fn spin_limit(mut self, spins: u32) -> Scan {
        self.spin_limit = spins;
        self
    }

    /// Look-back: always fall back (testing aid).
    pub const fn force_fallback(mut self, force: bool) -> Scan {
        self.force_fallback = force;
        self
    }

    /// Look-back: publish aggregates only (testing aid).
    pub const fn aggregates_only(mut self, on: bool) -> Scan {
        self.aggregates_only = on;
        self
    }

    /// Look-back: never see every third tile's state as ready (testing aid).
    pub const fn hide_some(mut self, on: bool) -> Scan {
        self.hide_some = on;
        self
    }

    fn name(&self) -> &'static str {
        match (self.op, self.exclusive) {
            (ScanOp::Add, false) => "inclusive add scan (cumsum)",
            (ScanOp::Add, true) => "exclusive add scan",
            (ScanOp::Min, false) => "inclusive min scan (cummin)",
            (ScanOp::Min, true) => "exclusive min scan",
            (ScanOp::Max, false) => "inclusive max scan (cummax)",
            (ScanOp::Max, true) => "exclusive max scan",
        }
    }

    /// `(rows, len)` of `shape` scanned along this scan's axis, or the error that says why not.
    fn rows(&self, shape: &[usize]) -> Result<(usize, usize)> {
        let ndim = shape.len();
        // A 0-d array scans as one element (axis 0 or -1, as PyTorch allows).
        let dims = ndim.max(1) as i32;
        let a = if self.axis < 0 {
            self.axis + dims
        } else {
            self.axis
        };
        if a < 0 || a >= dims {
            return Err(Error::AxisOutOfRange {
                axis: self.axis,
                ndim,
            });
        }
        if a != dims - 1 {
            return Err(Error::UnsupportedAxes {
                op: self.name(),
                axes: vec![self.axis],
                allowed: "scans run along the last axis only (-1 or ndim - 1); move the axis \
                          last first",
            });
        }
        let len = shape.last().copied().unwrap_or(1);
        let total: usize = shape.iter().product();
        Ok((total.checked_div(len).unwrap_or(0), len))
    }
}

/// Rows of at most this many elements (of arrays of more than one row) are scanned one row per
/// invocation.
pub const SERIAL_MAX_LEN: usize = 64;

/// Rows of at most this many tiles (and at least two) take the look-back under
/// [`ScanAlgorithm::Auto`] whatever their number.
pub const LOOKBACK_ROW_TILES: usize = 4;

/// Most tiles in a whole scan (all rows) for which [`ScanAlgorithm::Auto`] picks the look-back
/// for rows longer than [`LOOKBACK_ROW_TILES`] tiles.
pub const LOOKBACK_MAX_TILES: usize = 256;

/// One level of a scan: `rows` rows of `len` elements of `src` into `dst`.
struct Level<'a> {
    src: &'a RawArray,
    dst: &'a RawArray,
    rows: usize,
    len: usize,
}

impl Context {
    /// The algorithm [`ScanAlgorithm::Auto`] picks for `rows` rows of `len` elements on this
    /// adapter: [`ScanAlgorithm::DecoupledFallback`] on Vulkan, Metal and DX12 when a row spans
    /// at least two tiles and either at most [`LOOKBACK_ROW_TILES`] tiles or the whole scan at
    /// most [`LOOKBACK_MAX_TILES`] tiles; [`ScanAlgorithm::ReduceThenScan`] otherwise (and
    /// always on GL and WebGPU). Rows of at most [`scan_row_tile`](Self::scan_row_tile)
    /// elements are one tile each, scanned in one pass whichever algorithm is asked for; this
    /// reports [`ScanAlgorithm::ReduceThenScan`] for them.
    ///
    /// Measured on an H200 (BENCHMARKS.md, eighth session: batches of 10 f32 scans, both
    /// algorithms in one device call, GPU time per scan), the look-back took 0.81x
    /// reduce-then-scan's time for rows of 2 tiles (8192 x 8192), 0.89x for rows of 4 tiles
    /// (4096 x 16384) and 0.89x for one row of 256 tiles (2^20 elements); about the same for rows
    /// of 16 and 64 tiles when the scan is large (0.97x, 1.01x at 2^26 elements); and longer
    /// for larger single rows: 1.13x at 1,024 tiles (2^22), 1.44x at 65,536 tiles (2^28), and
    /// 1.44x for 64 rows of 1,024 tiles. A look-back tile finishes only after every tile before
    /// it in its row has published its total, so one slow load holds up the tiles claimed after
    /// it while they keep their registers; short rows wait only on a few tiles, the first of
    /// which publishes at once.
    pub fn scan_algorithm(&self, rows: usize, len: usize) -> ScanAlgorithm {
        let span = tile_span(rows, len);
        let tiles = if span <= self.scan_row_tile() {
            1
        } else {
            span.div_ceil(self.scan_tile().max(1))
        };
        let lookback = tiles >= 2
            && (tiles <= LOOKBACK_ROW_TILES || tiles.saturating_mul(rows) <= LOOKBACK_MAX_TILES);
        match self.capabilities().adapter.backend {
            wgpu::Backend::Vulkan | wgpu::Backend::Metal | wgpu::Backend::Dx12 if lookback => {
                ScanAlgorithm::DecoupledFallback
            }
            _ => ScanAlgorithm::ReduceThenScan,
        }
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

    /// Records and submits a scan (see [`Recorder::scan`]); returns at once, the result stays
    /// on the GPU.
    pub fn scan<T: Element, O: Element>(
        &self,
        x: &GpuArray<T>,
        scan: &Scan,
    ) -> Result<GpuArray<O>> {
        let mut rec = self.recorder();
        let out = rec.scan::<T, O>(x, scan)?;
        let _ = rec.submit()?;
        Ok(out)
    }

    /// Inclusive running sum along the last axis, submitted at once (see [`Recorder::cumsum`]).
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// let c = ctx.cumsum(&x)?;
    /// assert_eq!(ctx.read(&c)?, vec![1.0, 3.0, 6.0, 4.0, 9.0, 15.0]);
    /// # Ok(()) }
    /// ```
    pub fn cumsum<T: Element>(&self, x: &GpuArray<T>) -> Result<GpuArray<T::Acc>> {
        self.scan(x, &Scan::new(ScanOp::Add))
    }
}

impl Recorder {
    /// Records a scan of `x` along its last axis (each row scanned independently; a 1-D array
    /// is one row). `O` must be `T::Acc`: f32 for f16/bf16 input, the input type otherwise.
    /// The result has `x`'s shape and stays on the GPU.
    pub fn scan<T: Element, O: Element>(
        &mut self,
        x: &GpuArray<T>,
        scan: &Scan,
    ) -> Result<GpuArray<O>> {
        scan.rows(x.shape())?;
        let out = self.lease_output::<O>(x.shape().to_vec())?;
        self.record_scan(scan, &x.raw(), x.shape(), &out.raw())?;
        Ok(out)
    }

    /// Records a scan of `x` into `out`, a caller's array of as many elements (not `x`
    /// itself: scans are not in place).
    pub fn scan_to<T: Element, O: Element>(
        &mut self,
        x: &GpuArray<T>,
        scan: &Scan,
        out: &GpuArray<O>,
    ) -> Result<()> {
        self.record_scan(scan, &x.raw(), x.shape(), &out.raw())
    }

    /// Records an inclusive running sum along the last axis (`torch.cumsum(x, -1)`; the result
    /// type is f32 for f16/bf16, else the input type, and integers wrap).
    pub fn cumsum<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T::Acc>> {
        self.scan(x, &Scan::new(ScanOp::Add))
    }

    /// Records an inclusive running minimum along the last axis (`torch.cummin(x, -1).values`).
    pub fn cummin<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T::Acc>> {
        self.scan(x, &Scan::new(ScanOp::Min))
    }

    /// Records an inclusive running maximum along the last axis (`torch.cummax(x, -1).values`).
    pub fn cummax<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T::Acc>> {
        self.scan(x, &Scan::new(ScanOp::Max))
    }

    pub(crate) fn record_scan(
        &mut self,
        scan: &Scan,
        x: &RawArray,
        shape: &[usize],
        out: &RawArray,
    ) -> Result<()> {
        self.check_ctx(x, "the input array")?;
        self.check_ctx(out, "the output array")?;
        let want = scan.op.output(x.dtype);
        if out.dtype != want {
            return Err(Error::UnsupportedOutput {
                op: scan.name(),
                input: x.dtype,
                output: out.dtype,
                allowed: want.name().to_string(),
            });
        }
        let (rows, len) = scan.rows(shape)?;
        if out.len != x.len {
            return Err(Error::InvalidUse(format!(
                "a scan of shape {shape:?} gives {} elements; the output array has {}",
                x.len, out.len
            )));
        }
        if x.buffer() == out.buffer() {
            return Err(Error::InvalidUse(
                "scans are not in place: the output must be a different array from the input"
                    .into(),
            ));
        }
        if x.len == 0 {
            return Ok(());
        }
        let ctx = self.ctx().clone();
        let what = "a scan (scans bind their whole input and output)";
        ctx.check_binding_size(x.len, x.dtype, what)?;
        ctx.check_binding_size(out.len, out.dtype, what)?;
        let algorithm = match scan.algorithm {
            ScanAlgorithm::Auto => self.ctx().scan_algorithm(rows, len),
            a => a,
        };
        let level = Level {
            src: x,
            dst: out,
            rows,
            len,
        };
        self.record_scan_level(scan, &level, scan.exclusive, algorithm)
    }

    fn record_scan_level(
        &mut self,
        scan: &Scan,
        l: &Level,
        exclusive: bool,
        algorithm: ScanAlgorithm,
    ) -> Result<()> {
        let ctx = self.ctx().clone();
        let tuning = ctx.tuning();
        let caps = ctx.capabilities();
        let full = tuning.workgroup_size;
        let tile_of = |w: u32| scan_tile_len(w) as usize;
        // The smallest workgroup whose tile holds a whole row, so that each row is one tile of
        // the fast whole-tile path: smaller workgroups only for rows too long to pack several
        // to a tile, the larger row workgroup where the device allows it; else the full size.
        let smaller = l.rows > 1 && l.len > SERIAL_MAX_LEN;
        let fits = |a: &RawArray| a.buffer().size() >= padded_bytes(a.len, a.dtype);
        // Tiles load and store whole vec4 slots wherever both buffers are padded to 16 bytes;
        // rows off a 16-byte boundary are then tiled from the boundary before them (tile_span).
        let aligned = fits(l.src) && fits(l.dst);
        let span = if aligned {
            tile_span(l.rows, l.len)
        } else {
            l.len
        };
        let access = match (aligned, span != l.len) {
            (false, _) => ScanAccess::Scalar,
            (true, false) => ScanAccess::Vec,
            (true, true) => ScanAccess::Shifted,
        };
        let wg = WORKGROUP_SIZES
            .into_iter()
            .filter(|&w| w == full || (smaller && w < full))
            .chain([tuning.scan_row_workgroup_size])
            .find(|&w| tile_of(w) >= span)
            .unwrap_or(full);
        let tile = tile_of(wg);
        // The subgroup step maps data by subgroup, so every subgroup must be full.
        let subgroups = tuning.subgroups && caps.subgroup_max_size <= wg;
        let total = l.rows * l.len;
        let value = scan.op.output(l.src.dtype);
        let variant = |mode, exclusive| ScanVariant {
            op: scan.op,
            input: l.src.dtype,
            mode,
            exclusive,
            access: if mode == ScanMode::Serial {
                ScanAccess::Scalar
            } else {
                access
            },
            workgroup_size: wg,
            subgroups: subgroups && mode != ScanMode::Serial,
        };
        let mut params = [0u32; 16];
        params[0] = total as u32;
        params[5] = scan.spin_limit;
        params[6] = u32::from(scan.force_fallback)
            | (u32::from(scan.aggregates_only) << 1)
            | (u32::from(scan.hide_some) << 2)
            | ((scan.diagnostics & 3) << 3);
        let dst_bytes = padded_bytes(l.dst.len, l.dst.dtype);

        if l.rows > 1 && l.len <= SERIAL_MAX_LEN {
            // Short rows: one invocation per row, one pass.
            params[2] = l.len as u32;
            params[3] = l.rows as u32;
            let groups = l.rows.div_ceil(wg as usize);
            params[4] = groups as u32;
            let kernel = Kernel::Scan(variant(ScanMode::Serial, exclusive));
            return self.push_scan(kernel, l.src, l.dst, dst_bytes, None, params, groups);
        }
        let tpr = span.div_ceil(tile);
        let n_tiles = l
            .rows
            .checked_mul(tpr)
            .filter(|&n| n < u32::MAX as usize / 2);
        let n_tiles = n_tiles.ok_or_else(|| Error::TooLarge {
            what: format!("a scan of {} rows of {}", l.rows, l.len),
            bytes: total as u64,
            limit: u64::from(u32::MAX / 2) * tile as u64,
            limit_name: "2^31 tiles",
        })?;
        params[1] = tpr as u32;
        params[2] = l.len as u32;
        params[3] = l.rows as u32;
        params[4] = n_tiles as u32;
        if tpr == 1 {
            let kernel = Kernel::Scan(variant(ScanMode::Tile, exclusive));
            return self.push_scan(kernel, l.src, l.dst, dst_bytes, None, params, n_tiles);
        }
        if algorithm == ScanAlgorithm::DecoupledFallback {
            // Status: a tile counter, then two words per tile, cleared first.
            let words = 1 + 2 * n_tiles;
            let status = self.lease_temporary(words, DType::U32)?;
            let mut fill = [0u32; 16];
            fill[0] = words as u32;
            let groups = words.div_ceil(256);
            fill[1] = self.grid(groups as u32)?.0;
            self.push_dispatch(
                Kernel::Fill,
                l.src,
                &status,
                words as u64 * 4,
                fill,
                (groups as u32, 1),
            )?;
            let kernel = Kernel::Scan(variant(ScanMode::Lookback, exclusive));
            return self.push_scan(
                kernel,
                l.src,
                l.dst,
                dst_bytes,
                Some(&status),
                params,
                n_tiles,
            );
        }
        // Reduce-then-scan: tile totals, their exclusive scan (recursively), the downsweep.
        let (lo, hi) = tuning.scan_reversed_runs_bytes;
        if (lo..=hi).contains(&l.src.bytes()) {
            params[6] |= REVERSED_RUNS;
        }
        let sums = self.lease_temporary(n_tiles, value)?;
        let kernel = Kernel::Scan(variant(ScanMode::Reduce, false));
        let sums_bytes = padded_bytes(n_tiles, value);
        self.push_scan(kernel, l.src, &sums, sums_bytes, None, params, n_tiles)?;
        let scanned = self.lease_temporary(n_tiles, value)?;
        let inner = Level {
            src: &sums,
            dst: &scanned,
            rows: l.rows,
            len: tpr,
        };
        self.record_scan_level(scan, &inner, true, ScanAlgorithm::ReduceThenScan)?;
        let kernel = Kernel::Scan(variant(ScanMode::Downsweep, exclusive));
        self.push_scan(
            kernel,
            l.src,
            l.dst,
            dst_bytes,
            Some(&scanned),
            params,
            n_tiles,
        )
    }

    /// Records one scan pass over `n_tiles` tiles, with the grid's x extent and the number of
    /// workgroups in the params: one workgroup per tile (or per `workgroup_size` rows) for serial
    /// and look-back passes; otherwise at least [`Tuning::target_workgroups`](crate::Tuning)
    /// (one per tile if there are fewer tiles) and at least enough that none loops over more
    /// than [`Tuning::scan_tiles_per_workgroup`](crate::Tuning) tiles.
    #[allow(clippy::too_many_arguments)]
    fn push_scan(
        &mut self,
        kernel: Kernel,
        src: &RawArray,
        dst: &RawArray,
        dst_bytes: u64,
        aux: Option<&RawArray>,
        mut params: [u32; 16],
        n_tiles: usize,
    ) -> Result<()> {
        let one_each = matches!(kernel, Kernel::Scan(v) if matches!(v.mode, ScanMode::Serial | ScanMode::Lookback));
        let tuning = self.ctx().tuning();
        let n = n_tiles as u32;
        let groups = if one_each {
            n
        } else {
            // Both are at least 1 (see Context::with_options).
            n.min(tuning.target_workgroups)
                .max(n.div_ceil(tuning.scan_tiles_per_workgroup))
        };
        params[7] = self.grid(groups)?.0;
        params[8] = groups;
        self.push_dispatch_aux(kernel, src, dst, dst_bytes, aux, params, (groups, 1))
    }
}

/// `Params::flags` bit of the reduce-then-scan passes over the input: contiguous runs of tiles,
/// the downsweep from the end (shaders/scan_vec.wgsl, `first_tile` and `next_tile`).
const REVERSED_RUNS: u32 = 32;

/// The elements a row's tiles span where the buffers allow vec4 access: a row that starts off a
/// 16-byte boundary (possible when rows are not a multiple of 4 elements long) is tiled from the
/// boundary before it, so that every slot of 4 elements is one aligned vector load and store
/// (shaders/scan.wgsl, `tile_geo`, `ScanAccess::Shifted`); its tiles then hold up to 3 elements
/// of the row before it, which they neither scan nor store.
pub(crate) fn tile_span(rows: usize, len: usize) -> usize {
    if rows > 1 && !len.is_multiple_of(4) {
        len + 3
    } else {
        len
    }
}
