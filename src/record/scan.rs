//! Recording a scan: the checks, the algorithm, the tiles and the passes of each level.

use super::{Dispatch, Recorder};
use crate::array::{padded_bytes, GpuArray, RawArray, Storage};
use crate::context::Context;
use crate::element::{DType, Element};
use crate::error::{Error, Result};
use crate::kernels::params::{FillParams, ScanParams};
use crate::kernels::{scan_tile_len, Kernel, ScanAccess, ScanMode, ScanVariant, WORKGROUP_SIZES};
use crate::kernels::{CLEAN_STATE_WORDS, LOOKBACK_CLEAN_TILES};
use crate::ops::{Scan, ScanAlgorithm};
use crate::plan::scan::{auto_algorithm, lookback_workgroup, tile_span};
use std::sync::Arc;

/// One level of a scan: `rows` rows of `len` elements of `src` into `dst`.
struct Level<'a> {
    src: &'a RawArray,
    dst: &'a RawArray,
    rows: usize,
    len: usize,
    /// The scan of the caller's input (not of another level's tile totals).
    outer: bool,
}

impl Context {
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

    fn auto_scan_algorithm(&self, rows: usize, len: usize, output_waits: bool) -> ScanAlgorithm {
        let lookback_backend = matches!(
            self.capabilities().adapter.backend,
            wgpu::Backend::Vulkan | wgpu::Backend::Metal | wgpu::Backend::Dx12
        );
        auto_algorithm(rows, len, lookback_backend, output_waits, &self.tuning())
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

impl Recorder {
    /// The algorithm a scan of `x` into `out` recorded next would take: `scan.algorithm`, or
    /// for [`ScanAlgorithm::Auto`] [`Context::scan_algorithm`]'s choice, except that one row
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
    /// rec.scan_to(&x, &cumsum, &out)?;
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

    /// Whether a dispatch recorded so far used `out`'s buffer while none wrote `x`'s, for a
    /// scan of one row (the only scans whose algorithm depends on it; the others are not
    /// looked up), on Vulkan or DX12 (on Metal every dispatch of a pass runs after the one
    /// before it, so no first pass runs beside earlier work).
    fn output_waits(&self, x: &RawArray, out: &RawArray, rows: usize) -> bool {
        let ctx = self.ctx();
        let beside = matches!(
            ctx.capabilities().adapter.backend,
            wgpu::Backend::Vulkan | wgpu::Backend::Dx12
        );
        if !beside || rows != 1 {
            return false;
        }
        fn written(d: &Dispatch) -> impl Iterator<Item = &wgpu::Buffer> {
            d.aux.iter().chain([&d.dst]).map(RawArray::buffer)
        }
        fn used(d: &Dispatch) -> impl Iterator<Item = &wgpu::Buffer> {
            let read = d.second.iter().map(|(a, _)| a).chain([&d.src]);
            written(d).chain(read.map(RawArray::buffer))
        }
        let x_written = (self.dispatches.iter()).any(|d| written(d).any(|b| b == x.buffer()));
        let out_used = (self.dispatches.iter()).any(|d| used(d).any(|b| b == out.buffer()));
        out_used && !x_written
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
            ScanAlgorithm::Auto => {
                let waits = self.output_waits(x, out, rows);
                ctx.auto_scan_algorithm(rows, len, waits)
            }
            a => a,
        };
        let level = Level {
            src: x,
            dst: out,
            rows,
            len,
            outer: true,
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
        let smaller = l.rows > 1 && l.len > tuning.scan_serial_max_len;
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
        // A long single row's look-back takes its own (larger) workgroup.
        let wg = if algorithm == ScanAlgorithm::DecoupledFallback && tile_of(wg) < span {
            lookback_workgroup(l.rows, span, &tuning)
        } else {
            wg
        };
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
        let mut flags = 0;
        for (on, flag) in [
            (scan.testing.force_fallback, ScanParams::FORCE_FALLBACK),
            (scan.testing.aggregates_only, ScanParams::AGGREGATES_ONLY),
            (scan.testing.hide_some, ScanParams::HIDE_SOME),
        ] {
            if on {
                flags |= flag;
            }
        }
        let mut params = ScanParams {
            total: total as u32,
            spin_limit: scan.testing.spin_limit,
            flags,
            ..Default::default()
        };
        let dst_bytes = padded_bytes(l.dst.len, l.dst.dtype);

        if l.rows > 1 && l.len <= tuning.scan_serial_max_len {
            // Short rows: one invocation per row, one pass.
            params.len = l.len as u32;
            params.rows = l.rows as u32;
            let groups = l.rows.div_ceil(wg as usize);
            params.n_tiles = groups as u32;
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
        params.tpr = tpr as u32;
        params.len = l.len as u32;
        params.rows = l.rows as u32;
        params.n_tiles = n_tiles as u32;
        if tpr == 1 {
            let kernel = Kernel::Scan(variant(ScanMode::Tile, exclusive));
            return self.push_scan(kernel, l.src, l.dst, dst_bytes, None, params, n_tiles);
        }
        if algorithm == ScanAlgorithm::DecoupledFallback {
            let kernel = Kernel::Scan(variant(ScanMode::Lookback, exclusive));
            if n_tiles <= LOOKBACK_CLEAN_TILES {
                // The context's zeroed states, which the scan leaves zeroed: no fill pass.
                let states = self.clean_states();
                params.flags |= ScanParams::SELF_CLEAN;
                return self.push_scan(
                    kernel,
                    l.src,
                    l.dst,
                    dst_bytes,
                    Some(&states),
                    params,
                    n_tiles,
                );
            }
            // Status: a tile counter, then two words per tile, cleared first.
            let words = 1 + 2 * n_tiles;
            let status = self.lease_temporary(words, DType::U32)?;
            let groups = words.div_ceil(256);
            let fill = FillParams {
                n: words as u32,
                groups_x: self.grid(groups as u32)?.0,
                value: 0,
                ..Default::default()
            };
            self.push_dispatch(
                Kernel::Fill,
                l.src,
                &status,
                words as u64 * 4,
                fill,
                (groups as u32, 1),
            )?;
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
            params.flags |= ScanParams::REVERSED_RUNS;
        }
        // Two passes where the downsweep can combine the totals before its tiles itself: one
        // row (a total per run of tiles; at most 4 * wg runs, see push_scan) or few tiles (a
        // total per tile); else a scan of the totals (recursively) gives each tile its carry.
        let fused = l.outer
            && n_tiles <= tuning.scan_fused_max_tiles
            && (l.rows == 1 || n_tiles <= 4 * wg as usize);
        if fused && l.rows == 1 {
            params.flags |= ScanParams::RUN_TOTALS;
        }
        let sums = self.lease_temporary(n_tiles, value)?;
        let kernel = Kernel::Scan(variant(ScanMode::Reduce, false));
        let sums_bytes = padded_bytes(n_tiles, value);
        self.push_scan(kernel, l.src, &sums, sums_bytes, None, params, n_tiles)?;
        let (mode, carries) = if fused {
            (ScanMode::FusedDownsweep, sums)
        } else {
            let scanned = self.lease_temporary(n_tiles, value)?;
            let inner = Level {
                src: &sums,
                dst: &scanned,
                rows: l.rows,
                len: tpr,
                outer: false,
            };
            self.record_scan_level(scan, &inner, true, ScanAlgorithm::ReduceThenScan)?;
            (ScanMode::Downsweep, scanned)
        };
        let kernel = Kernel::Scan(variant(mode, exclusive));
        self.push_scan(kernel, l.src, l.dst, dst_bytes, None, params, n_tiles)?;
        self.bind_carries(&carries);
        Ok(())
    }

    /// The context's clean states (see [`LOOKBACK_CLEAN_TILES`]: look-back scans, and
    /// reductions whose last workgroup combines) as an array to bind: the next of its up to
    /// [`INDEPENDENT_SLOTS`](crate::kernels::INDEPENDENT_SLOTS) buffers, so that operations of
    /// one recording that share no array do not wait for each other.
    pub(crate) fn clean_states(&mut self) -> RawArray {
        let slot = self.clean_states;
        self.clean_states += 1;
        let inner = &self.ctx().inner;
        RawArray {
            storage: Arc::new(Storage::Context(
                inner.clean_states.get(&inner.device, slot),
            )),
            len: CLEAN_STATE_WORDS,
            dtype: DType::U32,
            ctx_id: self.ctx().id(),
        }
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
        mut params: ScanParams,
        n_tiles: usize,
    ) -> Result<()> {
        let one_each = matches!(kernel, Kernel::Scan(v) if matches!(v.mode, ScanMode::Serial | ScanMode::Lookback));
        let tuning = self.ctx().tuning();
        let n = n_tiles as u32;
        let groups = if one_each {
            n
        } else {
            // Both are at least 1 (see Context::with_options).
            let g = n
                .min(tuning.target_workgroups)
                .max(n.div_ceil(tuning.scan_tiles_per_workgroup));
            match kernel {
                // Runs of tiles: each workgroup of the downsweep combines the totals of the runs
                // before its own first, so runs of one tile pay that for each tile; runs of two
                // where that leaves at least half the target. The downsweep combines up to
                // `groups` run totals: at most 4 per invocation. On the H200 (2^22 f32, 1024
                // tiles) 512 runs of two took 18.0-18.3 us, 1024 of one 20.0-20.5.
                Kernel::Scan(v) if params.flags & ScanParams::RUN_TOTALS != 0 => n
                    .div_ceil(2)
                    .max(n.min(tuning.target_workgroups / 2))
                    .min(4 * v.workgroup_size),
                _ => g,
            }
        };
        params.groups_x = self.grid(groups)?.0;
        params.groups = groups;
        self.push_dispatch_aux(kernel, src, dst, dst_bytes, aux, params, (groups, 1))
    }
}
