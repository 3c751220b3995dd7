//! Planning a scan: which algorithm [`ScanAlgorithm::Auto`] takes, how rows map onto tiles, and
//! the whole plan of passes ([`plan_scan`]). Pure functions, tested without a device.

use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::params::ScanParams;
use crate::kernels::{
    scan_tile_len, ScanAccess, ScanMode, ScanVariant, LOOKBACK_CLEAN_TILES, WORKGROUP_SIZES,
};
use crate::ops::{ScanAlgorithm, ScanOp, ScanTesting};
use crate::plan::tuning::Tuning;

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

/// The workgroup size of a look-back pass over `rows` rows whose tiles span `span` elements
/// each: [`Tuning::scan_lookback_workgroup_size`] for one row longer than
/// [`Tuning::scan_lookback_max_tiles`] tiles at the default size (where the larger tiles were
/// faster on the H200: 2^20 f32, 128 tiles of 8192, took 8.4–8.5 µs of GPU time against 9.4–10.0
/// for 256 tiles of 4096 and 10.3 for reduce-then-scan); half of `workgroup_size` for one row
/// of at most [`Tuning::scan_lookback_small_tiles`] tiles at the default size, where that half
/// is one of [`WORKGROUP_SIZES`]; else `workgroup_size` (rows of a few tiles at 512 were slower:
/// 1024 rows of 10,000 took 54.2 µs against 40.5).
pub(crate) fn lookback_workgroup(rows: usize, span: usize, tuning: &Tuning) -> u32 {
    let tiles = span.div_ceil(scan_tile_len(tuning.workgroup_size) as usize);
    if rows != 1 {
        tuning.workgroup_size
    } else if tiles > tuning.scan_lookback_max_tiles {
        tuning.scan_lookback_workgroup_size
    } else if tiles <= tuning.scan_lookback_small_tiles {
        small_lookback_workgroup(tuning).unwrap_or(tuning.workgroup_size)
    } else {
        tuning.workgroup_size
    }
}

/// The workgroup size of the look-back over one row of few tiles: half of `workgroup_size`,
/// where that is one of [`WORKGROUP_SIZES`] and [`Tuning::scan_lookback_small_tiles`] is not 0.
pub(crate) fn small_lookback_workgroup(tuning: &Tuning) -> Option<u32> {
    let half = tuning.workgroup_size / 2;
    (tuning.scan_lookback_small_tiles > 0 && WORKGROUP_SIZES.contains(&half)).then_some(half)
}

/// The algorithm [`ScanAlgorithm::Auto`] takes for `rows` rows of `len` elements with this
/// tuning, whether the backend may run the look-back (see `Context::scan_algorithm`), and
/// whether the scan writes an output an earlier operation of its recording used while reading
/// an input none wrote (`output_waits`: one row of more than
/// [`Tuning::scan_lookback_row_tiles`] tiles then takes reduce-then-scan; see
/// [`Tuning::scan_lookback_wide_max_tiles`]).
pub(crate) fn auto_algorithm(
    rows: usize,
    len: usize,
    lookback_backend: bool,
    output_waits: bool,
    tuning: &Tuning,
) -> ScanAlgorithm {
    let span = tile_span(rows, len);
    let row_tile = scan_tile_len(tuning.scan_row_workgroup_size) as usize;
    let wg = lookback_workgroup(rows, span, tuning);
    let tile = scan_tile_len(wg) as usize;
    let tiles = if span <= row_tile {
        1
    } else {
        span.div_ceil(tile)
    };
    // One long row at the look-back's larger workgroup.
    let wide = rows == 1 && wg > tuning.workgroup_size;
    let lookback = tiles >= 2
        && (tiles <= tuning.scan_lookback_row_tiles
            || !(rows == 1 && output_waits)
                && match wide {
                    true => tiles <= tuning.scan_lookback_wide_max_tiles,
                    false => tiles.saturating_mul(rows) <= tuning.scan_lookback_max_tiles,
                });
    if lookback && lookback_backend {
        ScanAlgorithm::DecoupledFallback
    } else {
        ScanAlgorithm::ReduceThenScan
    }
}

/// What a scan's plan depends on besides the tuning: the operation, the input's element type,
/// the rows, the algorithm already resolved (see [`auto_algorithm`]), whether the input's and
/// the output's buffers are padded to 16 bytes (vec4 access), the device's
/// largest subgroup, and the testing switches.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScanInput {
    pub op: ScanOp,
    pub exclusive: bool,
    pub dtype: DType,
    pub rows: usize,
    pub len: usize,
    pub algorithm: ScanAlgorithm,
    pub aligned: bool,
    pub subgroup_max_size: u32,
    pub testing: ScanTesting,
}

/// A buffer a step of a scan binds: the caller's input or output, a temporary of the plan
/// (by index into [`ScanPlan::temps`]), or the context's clean states (zero before and after
/// the pass: see [`LOOKBACK_CLEAN_TILES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScanBuf {
    Input,
    Output,
    Temp(usize),
    CleanStates,
}

/// One step of a scan, in order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ScanStep {
    /// Clear `words` u32 words of `dst` (the look-back's status) before the pass that uses it.
    Fill { dst: ScanBuf, words: usize },
    /// A scan pass over `params.n_tiles` tiles (or rows, for serial passes) on `groups`
    /// workgroups: `src` into `dst`, with the look-back's states at `aux` and the tile totals
    /// of a downsweep at `carries`.
    Pass {
        variant: ScanVariant,
        src: ScanBuf,
        dst: ScanBuf,
        aux: Option<ScanBuf>,
        carries: Option<ScanBuf>,
        params: ScanParams,
        groups: u32,
    },
}

/// The whole plan of a scan: its temporaries (length, element type) and its steps.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ScanPlan {
    pub temps: Vec<(usize, DType)>,
    pub steps: Vec<ScanStep>,
}

/// One level of a scan: `rows` rows of `len` elements of `src` into `dst`; `outer` for the
/// scan of the caller's input (not of another level's tile totals).
struct Level {
    src: ScanBuf,
    dst: ScanBuf,
    dtype: DType,
    rows: usize,
    len: usize,
    exclusive: bool,
    aligned: bool,
    outer: bool,
    algorithm: ScanAlgorithm,
}

/// The plan of a scan of `input.rows` rows of `input.len` elements (at least one element).
/// Rows of at most [`Tuning::scan_serial_max_len`] elements (of several rows) take one serial
/// pass; rows of one tile one tile pass; longer rows the look-back (a fill of its status first
/// where the context's clean states are too small) or reduce-then-scan: tile totals, their
/// exclusive scan (planned the same way) or, for few tiles, none, and the downsweep. Fails
/// only where a scan would have 2^31 tiles or more.
pub(crate) fn plan_scan(input: &ScanInput, tuning: &Tuning) -> Result<ScanPlan> {
    let mut plan = ScanPlan::default();
    let level = Level {
        src: ScanBuf::Input,
        dst: ScanBuf::Output,
        dtype: input.dtype,
        rows: input.rows,
        len: input.len,
        exclusive: input.exclusive,
        aligned: input.aligned,
        outer: true,
        algorithm: input.algorithm,
    };
    plan_level(&mut plan, input, &level, tuning)?;
    Ok(plan)
}

fn plan_level(plan: &mut ScanPlan, input: &ScanInput, l: &Level, tuning: &Tuning) -> Result<()> {
    let full = tuning.workgroup_size;
    let tile_of = |w: u32| scan_tile_len(w) as usize;
    // The smallest workgroup whose tile holds a whole row, so that each row is one tile of the
    // fast whole-tile path: smaller workgroups only for rows too long to pack several to a
    // tile, the larger row workgroup where the device allows it; else the full size.
    let smaller = l.rows > 1 && l.len > tuning.scan_serial_max_len;
    // Tiles load and store whole vec4 slots wherever both buffers are padded to 16 bytes; rows
    // off a 16-byte boundary are then tiled from the boundary before them (tile_span).
    let span = if l.aligned {
        tile_span(l.rows, l.len)
    } else {
        l.len
    };
    let access = match (l.aligned, span != l.len) {
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
    let wg = if l.algorithm == ScanAlgorithm::DecoupledFallback && tile_of(wg) < span {
        lookback_workgroup(l.rows, span, tuning)
    } else {
        wg
    };
    let tile = tile_of(wg);
    // The subgroup step maps data by subgroup, so every subgroup must be full.
    let subgroups = tuning.subgroups && input.subgroup_max_size <= wg;
    let total = l.rows * l.len;
    let value = input.op.output(l.dtype);
    let variant = |mode, exclusive| ScanVariant {
        op: input.op,
        input: l.dtype,
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
        (input.testing.force_fallback, ScanParams::FORCE_FALLBACK),
        (input.testing.aggregates_only, ScanParams::AGGREGATES_ONLY),
        (input.testing.hide_some, ScanParams::HIDE_SOME),
    ] {
        if on {
            flags |= flag;
        }
    }
    let mut params = ScanParams {
        total: total as u32,
        len: l.len as u32,
        rows: l.rows as u32,
        spin_limit: input.testing.spin_limit,
        flags,
        ..Default::default()
    };
    let pass = |plan: &mut ScanPlan, variant, src, dst, aux, carries, params: ScanParams| {
        let groups = scan_groups(&variant, &params, tuning);
        plan.steps.push(ScanStep::Pass {
            variant,
            src,
            dst,
            aux,
            carries,
            params,
            groups,
        });
    };
    if l.rows > 1 && l.len <= tuning.scan_serial_max_len {
        // Short rows: one invocation per row, one pass.
        params.n_tiles = l.rows.div_ceil(wg as usize) as u32;
        let v = variant(ScanMode::Serial, l.exclusive);
        pass(plan, v, l.src, l.dst, None, None, params);
        return Ok(());
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
    params.n_tiles = n_tiles as u32;
    if tpr == 1 {
        let v = variant(ScanMode::Tile, l.exclusive);
        pass(plan, v, l.src, l.dst, None, None, params);
        return Ok(());
    }
    if l.algorithm == ScanAlgorithm::DecoupledFallback {
        let v = variant(ScanMode::Lookback, l.exclusive);
        let states = if n_tiles <= LOOKBACK_CLEAN_TILES {
            // The context's zeroed states, which the scan leaves zeroed: no fill pass.
            params.flags |= ScanParams::SELF_CLEAN;
            ScanBuf::CleanStates
        } else {
            // Status: a tile counter, then two words per tile, cleared first.
            let words = 1 + 2 * n_tiles;
            plan.temps.push((words, DType::U32));
            let status = ScanBuf::Temp(plan.temps.len() - 1);
            plan.steps.push(ScanStep::Fill { dst: status, words });
            status
        };
        pass(plan, v, l.src, l.dst, Some(states), None, params);
        return Ok(());
    }
    // Reduce-then-scan: tile totals, their exclusive scan (recursively), the downsweep.
    let (lo, hi) = tuning.scan_reversed_runs_bytes;
    let src_bytes = (l.rows * l.len * l.dtype.size_bytes()) as u64;
    if (lo..=hi).contains(&src_bytes) {
        params.flags |= ScanParams::REVERSED_RUNS;
    }
    // Two passes where the downsweep can combine the totals before its tiles itself: one row
    // (a total per run of tiles; at most 4 * wg runs, see scan_groups) or few tiles (a total
    // per tile); else a scan of the totals (recursively) gives each tile its carry.
    let fused = l.outer
        && n_tiles <= tuning.scan_fused_max_tiles
        && (l.rows == 1 || n_tiles <= 4 * wg as usize);
    if fused && l.rows == 1 {
        params.flags |= ScanParams::RUN_TOTALS;
    }
    plan.temps.push((n_tiles, value));
    let sums = ScanBuf::Temp(plan.temps.len() - 1);
    pass(
        plan,
        variant(ScanMode::Reduce, false),
        l.src,
        sums,
        None,
        None,
        params,
    );
    let (mode, carries) = if fused {
        (ScanMode::FusedDownsweep, sums)
    } else {
        plan.temps.push((n_tiles, value));
        let scanned = ScanBuf::Temp(plan.temps.len() - 1);
        let inner = Level {
            src: sums,
            dst: scanned,
            dtype: value,
            rows: l.rows,
            len: tpr,
            exclusive: true,
            aligned: true,
            outer: false,
            algorithm: ScanAlgorithm::ReduceThenScan,
        };
        plan_level(plan, input, &inner, tuning)?;
        (ScanMode::Downsweep, scanned)
    };
    let v = variant(mode, l.exclusive);
    pass(plan, v, l.src, l.dst, None, Some(carries), params);
    Ok(())
}

/// Workgroups of a scan pass: one per tile (or per `workgroup_size` rows) for serial and
/// look-back passes; otherwise at least [`Tuning::target_workgroups`] (one per tile if there
/// are fewer tiles) and at least enough that none loops over more than
/// [`Tuning::scan_tiles_per_workgroup`] tiles. Passes over runs of tiles (`RUN_TOTALS`): runs
/// of two tiles where that leaves at least half the target, at most 4 per invocation of the
/// downsweep, which combines the totals of the runs before its own.
pub(crate) fn scan_groups(variant: &ScanVariant, params: &ScanParams, tuning: &Tuning) -> u32 {
    let n = params.n_tiles;
    if matches!(variant.mode, ScanMode::Serial | ScanMode::Lookback) {
        return n;
    }
    if params.flags & ScanParams::RUN_TOTALS != 0 {
        return n
            .div_ceil(2)
            .max(n.min(tuning.target_workgroups / 2))
            .min(4 * variant.workgroup_size);
    }
    // Both are at least 1 (see Tuning::resolve).
    n.min(tuning.target_workgroups)
        .max(n.div_ceil(tuning.scan_tiles_per_workgroup))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_off_a_16_byte_boundary_take_three_elements_of_slack() {
        assert_eq!(tile_span(1, 10), 10);
        assert_eq!(tile_span(2, 8), 8);
        assert_eq!(tile_span(2, 10), 13);
    }

    #[test]
    fn auto_takes_the_lookback_for_short_rows_of_tiles_and_small_scans() {
        let t = Tuning {
            subgroups: false,
            ..crate::plan::test_tuning()
        };
        let dfb = ScanAlgorithm::DecoupledFallback;
        let rts = ScanAlgorithm::ReduceThenScan;
        // One tile per row: one pass whatever the algorithm; reported as reduce-then-scan.
        assert_eq!(auto_algorithm(8192, 8192, true, false, &t), rts);
        // Rows of 2..=4 tiles, any number of rows.
        assert_eq!(auto_algorithm(4096, 16384, true, false, &t), dfb);
        assert_eq!(auto_algorithm(4096, 16385, true, false, &t), rts);
        // One row of 128 tiles (2^19), and of up to 256 larger tiles (2^21) where the larger
        // look-back workgroup is taken; not beyond.
        assert_eq!(auto_algorithm(1, 1 << 19, true, false, &t), dfb);
        assert_eq!(auto_algorithm(1, 1 << 20, true, false, &t), dfb);
        assert_eq!(auto_algorithm(1, 1 << 21, true, false, &t), dfb);
        assert_eq!(auto_algorithm(1, (1 << 21) + 1, true, false, &t), rts);
        // A scan of one row whose output waits for earlier work while its input does not:
        // reduce-then-scan past 4 tiles of either size (one row of up to 4 tiles of the small
        // look-back workgroup is one tile of the row workgroup), rows of few tiles keep it.
        assert_eq!(auto_algorithm(1, 1 << 16, true, false, &t), dfb);
        assert_eq!(auto_algorithm(1, 1 << 16, true, true, &t), rts);
        assert_eq!(auto_algorithm(1, 1 << 19, true, true, &t), rts);
        assert_eq!(auto_algorithm(1, 1 << 21, true, true, &t), rts);
        assert_eq!(auto_algorithm(4096, 16384, true, true, &t), dfb);
        let fewer = Tuning {
            scan_lookback_wide_max_tiles: 128,
            ..t
        };
        assert_eq!(auto_algorithm(1, 1 << 20, true, false, &fewer), dfb);
        assert_eq!(auto_algorithm(1, (1 << 20) + 1, true, false, &fewer), rts);
        let narrow = Tuning {
            scan_lookback_workgroup_size: 256,
            ..t
        };
        assert_eq!(auto_algorithm(1, 1 << 20, true, false, &narrow), rts);
        // Never where the backend may not run it (GL, WebGPU).
        assert_eq!(auto_algorithm(4096, 16384, false, false, &t), rts);
        // The edges, at tiles of 4096 (row tiles of 8192, look-back tiles of 8192 for one row
        // past 128 tiles): (rows, len, look-back).
        let (tile, wide) = (4096, 8192);
        let cases = [
            (1, tile, false),
            (100_000, tile, false),
            (1, 2 * tile, false),
            (1, 2 * tile + 1, true),
            (100_000, 4 * tile, true),
            (100_000, 4 * tile + 1, false),
            (1, 128 * tile, true),
            (1, 128 * tile + 1, true),
            (1, 256 * wide, true),
            (1, 256 * wide + 1, false),
            (16, 8 * tile, true),
            (17, 8 * tile, false),
            (1, 1 << 28, false),
        ];
        let mut checked = 0;
        for (rows, len, lookback) in cases {
            let want = if lookback { dfb } else { rts };
            assert_eq!(
                auto_algorithm(rows, len, true, false, &t),
                want,
                "{rows} x {len}"
            );
            assert_eq!(
                auto_algorithm(rows, len, false, false, &t),
                rts,
                "{rows} x {len}"
            );
            checked += 1;
        }
        assert_eq!(checked, 13);
    }

    #[test]
    fn only_single_rows_past_the_smaller_lookback_take_the_larger_workgroup() {
        let t = crate::plan::test_tuning();
        assert_eq!(lookback_workgroup(1, 1 << 19, &t), 256);
        assert_eq!(lookback_workgroup(1, (1 << 19) + 1, &t), 512);
        assert_eq!(lookback_workgroup(1, 1 << 28, &t), 512);
        assert_eq!(lookback_workgroup(2, 1 << 24, &t), 256);
        let narrow = Tuning {
            scan_lookback_workgroup_size: 256,
            ..t
        };
        assert_eq!(lookback_workgroup(1, 1 << 28, &narrow), 256);
    }

    #[test]
    fn single_rows_of_few_tiles_take_half_the_workgroup() {
        let t = crate::plan::test_tuning();
        // 48 tiles of 4096 (the default's limit) take tiles of 2048; 48 tiles and one element
        // do not, nor rows of an array of several rows.
        assert_eq!(lookback_workgroup(1, 48 * 4096, &t), 128);
        assert_eq!(lookback_workgroup(1, 8193, &t), 128);
        assert_eq!(lookback_workgroup(1, 48 * 4096 + 1, &t), 256);
        assert_eq!(lookback_workgroup(2, 8193, &t), 256);
        let off = Tuning {
            scan_lookback_small_tiles: 0,
            ..t
        };
        assert_eq!(lookback_workgroup(1, 8193, &off), 256);
        // Half of 64 is no workgroup size the kernels are built for.
        let small = Tuning {
            workgroup_size: 64,
            ..t
        };
        assert_eq!(lookback_workgroup(1, 2049, &small), 64);
        // Auto's tile count follows: one row of 48 tiles of 4096 is 96 tiles of 2048, still a
        // look-back.
        assert_eq!(
            auto_algorithm(1, 48 * 4096, true, false, &t),
            ScanAlgorithm::DecoupledFallback
        );
    }

    fn input(rows: usize, len: usize, algorithm: ScanAlgorithm) -> ScanInput {
        ScanInput {
            op: ScanOp::Add,
            exclusive: false,
            dtype: DType::F32,
            rows,
            len,
            algorithm,
            aligned: true,
            subgroup_max_size: 32,
            testing: ScanTesting::NONE,
        }
    }

    /// The passes of a plan: (mode, workgroup size, src, dst, aux, carries, groups).
    type Row = (
        ScanMode,
        u32,
        ScanBuf,
        ScanBuf,
        Option<ScanBuf>,
        Option<ScanBuf>,
        u32,
    );

    fn passes(plan: &ScanPlan) -> Vec<Row> {
        (plan.steps.iter())
            .filter_map(|s| match *s {
                ScanStep::Pass {
                    variant: v,
                    src,
                    dst,
                    aux,
                    carries,
                    groups,
                    ..
                } => Some((v.mode, v.workgroup_size, src, dst, aux, carries, groups)),
                ScanStep::Fill { .. } => None,
            })
            .collect()
    }

    fn params(plan: &ScanPlan, k: usize) -> ScanParams {
        let ScanStep::Pass { params, .. } = plan.steps[k] else {
            panic!("step {k} is not a pass")
        };
        params
    }

    fn variant(plan: &ScanPlan, k: usize) -> ScanVariant {
        let ScanStep::Pass { variant, .. } = plan.steps[k] else {
            panic!("step {k} is not a pass")
        };
        variant
    }

    use ScanBuf::{CleanStates, Input, Output, Temp};
    use ScanMode::{Downsweep, FusedDownsweep, Lookback, Reduce, Serial, Tile};
    const RTS: ScanAlgorithm = ScanAlgorithm::ReduceThenScan;
    const DFB: ScanAlgorithm = ScanAlgorithm::DecoupledFallback;

    #[test]
    fn short_rows_take_one_serial_or_tile_pass_at_the_smallest_workgroup_that_holds_them() {
        let t = crate::plan::test_tuning();
        // Rows of at most 64 elements: one invocation per row, 256 rows a workgroup.
        let plan = plan_scan(&input(1000, 50, RTS), &t).unwrap();
        assert_eq!(plan.temps, vec![]);
        assert_eq!(
            passes(&plan),
            vec![(Serial, 256, Input, Output, None, None, 4)]
        );
        assert_eq!(variant(&plan, 0).access, ScanAccess::Scalar);
        // Rows of one tile: the smallest workgroup whose tile holds the row, at least
        // target_workgroups workgroups (or one a tile), at most 2 tiles each.
        let plan = plan_scan(&input(10, 1000, DFB), &t).unwrap();
        assert_eq!(
            passes(&plan),
            vec![(Tile, 64, Input, Output, None, None, 10)]
        );
        let plan = plan_scan(&input(5000, 4096, RTS), &t).unwrap();
        assert_eq!(
            passes(&plan),
            vec![(Tile, 256, Input, Output, None, None, 2500)]
        );
        // One row of up to 8192 elements: one tile at the row workgroup (256 invocations).
        let plan = plan_scan(&input(1, 8192, RTS), &t).unwrap();
        assert_eq!(
            passes(&plan),
            vec![(Tile, 512, Input, Output, None, None, 1)]
        );
        assert_eq!(variant(&plan, 0).invocations(), 256);
        let p = params(&plan, 0);
        assert_eq!(
            (p.total, p.tpr, p.len, p.rows, p.n_tiles),
            (8192, 1, 8192, 1, 1)
        );
    }

    #[test]
    fn access_follows_padding_and_row_alignment_and_subgroups_need_full_subgroups() {
        let t = crate::plan::test_tuning();
        let access = |i: ScanInput| variant(&plan_scan(&i, &t).unwrap(), 0).access;
        assert_eq!(access(input(10, 4000, RTS)), ScanAccess::Vec);
        assert_eq!(access(input(10, 4001, RTS)), ScanAccess::Shifted);
        assert_eq!(access(input(1, 4001, RTS)), ScanAccess::Vec);
        let unpadded = ScanInput {
            aligned: false,
            ..input(10, 4000, RTS)
        };
        assert_eq!(access(unpadded), ScanAccess::Scalar);
        // Subgroups only where the largest subgroup fits the workgroup.
        let wide = |len| ScanInput {
            subgroup_max_size: 128,
            ..input(10, len, RTS)
        };
        let sg = |i: ScanInput| variant(&plan_scan(&i, &t).unwrap(), 0).subgroups;
        assert!(!sg(wide(1000)), "64 invocations");
        assert!(sg(wide(4000)), "256 invocations");
        let off = Tuning {
            subgroups: false,
            ..t
        };
        assert!(!variant(&plan_scan(&wide(4000), &off).unwrap(), 0).subgroups);
    }

    #[test]
    fn the_lookback_takes_the_clean_states_or_a_cleared_status() {
        let t = crate::plan::test_tuning();
        // One row of 2^20: past 128 tiles of 4096, so tiles of 8192 at 512; 128 tiles fit the
        // context's clean states, which the pass leaves clean.
        let plan = plan_scan(&input(1, 1 << 20, DFB), &t).unwrap();
        assert_eq!(plan.temps, vec![]);
        let want = (Lookback, 512, Input, Output, Some(CleanStates), None, 128);
        assert_eq!(passes(&plan), vec![want]);
        assert_ne!(params(&plan, 0).flags & ScanParams::SELF_CLEAN, 0);
        // 2^24: 2048 tiles, more than the clean states hold: a status of 1 + 2 * 2048 words,
        // cleared first.
        let plan = plan_scan(&input(1, 1 << 24, DFB), &t).unwrap();
        assert_eq!(plan.temps, vec![(4097, DType::U32)]);
        let fill = ScanStep::Fill {
            dst: Temp(0),
            words: 4097,
        };
        assert_eq!(plan.steps[0], fill);
        let want = (Lookback, 512, Input, Output, Some(Temp(0)), None, 2048);
        assert_eq!(passes(&plan), vec![want]);
        assert_eq!(params(&plan, 1).flags & ScanParams::SELF_CLEAN, 0);
        // Rows of several tiles keep the default workgroup; testing switches reach the flags.
        let forced = ScanInput {
            testing: ScanTesting {
                force_fallback: true,
                spin_limit: 2,
                ..ScanTesting::NONE
            },
            ..input(100, 3 * 4096, DFB)
        };
        let plan = plan_scan(&forced, &t).unwrap();
        let want = (Lookback, 256, Input, Output, Some(CleanStates), None, 300);
        assert_eq!(passes(&plan), vec![want]);
        let p = params(&plan, 0);
        assert_ne!(p.flags & ScanParams::FORCE_FALLBACK, 0);
        assert_eq!((p.spin_limit, p.tpr, p.n_tiles), (2, 3, 300));
    }

    #[test]
    fn reduce_then_scan_fuses_few_tiles_and_scans_the_totals_of_more() {
        let t = crate::plan::test_tuning();
        // One row of 1024 tiles: two passes over runs of tiles (512 runs of two).
        let plan = plan_scan(&input(1, 1 << 22, RTS), &t).unwrap();
        assert_eq!(plan.temps, vec![(1024, DType::F32)]);
        assert_eq!(
            passes(&plan),
            vec![
                (Reduce, 256, Input, Temp(0), None, None, 512),
                (FusedDownsweep, 256, Input, Output, None, Some(Temp(0)), 512),
            ]
        );
        assert!(!variant(&plan, 0).exclusive);
        assert_ne!(params(&plan, 1).flags & ScanParams::RUN_TOTALS, 0);
        // Past scan_fused_max_tiles (2048): the totals scanned (exclusive) by a level of
        // their own, one tile of 4096 totals here; reversed runs for inputs in their range.
        let runs = Tuning {
            scan_reversed_runs_bytes: (32 << 20, 256 << 20),
            ..t
        };
        let plan = plan_scan(&input(1, 1 << 24, RTS), &runs).unwrap();
        assert_eq!(plan.temps, vec![(4096, DType::F32), (4096, DType::F32)]);
        assert_eq!(
            passes(&plan),
            vec![
                (Reduce, 256, Input, Temp(0), None, None, 2048),
                (Tile, 256, Temp(0), Temp(1), None, None, 1),
                (Downsweep, 256, Input, Output, None, Some(Temp(1)), 2048),
            ]
        );
        assert!(variant(&plan, 1).exclusive);
        for (k, reversed) in [(0, true), (1, false), (2, true)] {
            let on = params(&plan, k).flags & ScanParams::REVERSED_RUNS != 0;
            assert_eq!(on, reversed, "pass {k}");
        }
        // Many rows of few tiles: fused (a total per tile) while at most 4 per invocation.
        let plan = plan_scan(&input(200, 5 * 4096, RTS), &t).unwrap();
        assert_eq!(passes(&plan)[1].0, FusedDownsweep);
        assert_eq!(params(&plan, 1).flags & ScanParams::RUN_TOTALS, 0);
        let plan = plan_scan(&input(300, 5 * 4096, RTS), &t).unwrap();
        assert_eq!(passes(&plan)[2].0, Downsweep);
    }

    #[test]
    fn too_many_tiles_are_an_error() {
        let t = crate::plan::test_tuning();
        let e = plan_scan(&input(1 << 30, 16384, RTS), &t).unwrap_err();
        assert!(
            matches!(
                e,
                Error::TooLarge {
                    limit_name: "2^31 tiles",
                    ..
                }
            ),
            "{e}"
        );
    }
}
