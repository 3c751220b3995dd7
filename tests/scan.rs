//! Prefix scans against the CPU reference: every operation, inclusive and exclusive, every
//! element type, both algorithms (and the look-back's forced fallback), with and without
//! subgroups; whole arrays of edge lengths around the tile size and rows of many lengths.
//! Outputs come from the poisoned pool (every byte 0xFF before the run), so an element the
//! kernels never write shows up as NaN or -1 / u32::MAX.

mod common;

use common::reference::Data;
use common::run::{make_data, run_scan, upload};
use common::scan_ref::{check_scan, scan_reference};
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::{Context, ContextOptions, DType, Scan, ScanAlgorithm, ScanOp};

const ALGORITHMS: [ScanAlgorithm; 2] = [
    ScanAlgorithm::ReduceThenScan,
    ScanAlgorithm::DecoupledFallback,
];

/// The algorithms a test checks: both, or where the sweep is cut short (CI's run on wgpu's GL
/// backend, where llvmpipe compiles each new kernel for seconds) one drawn from the test's
/// seeded RNG; the sweeps and the tests of each algorithm's own paths check both everywhere.
fn algorithms(rng: &mut StdRng) -> Vec<ScanAlgorithm> {
    if common::sweep_fraction() < 1.0 {
        return vec![ALGORITHMS[rng.gen_range(0..ALGORITHMS.len())]];
    }
    ALGORITHMS.to_vec()
}

/// Random data: floats uniform in [-1, 1) (or, `dyadic`, multiples of 1/16 in [-8, 8], whose
/// partial sums here are exact in f32), integers over their whole range (sums wrap).
fn data(rng: &mut StdRng, dtype: DType, n: usize, dyadic: bool) -> Data {
    let mut r2 = rng.clone();
    let d = make_data(
        dtype,
        n,
        || {
            if dyadic {
                f64::from(rng.gen_range(-128i32..=128)) / 16.0
            } else {
                rng.gen_range(-1.0..1.0)
            }
        },
        || r2.gen::<u32>() as i64,
    );
    let _ = rng.gen::<u64>();
    d
}

/// Scans `shape` of random `dtype` data with `scan` and checks every element.
fn check_case(
    ctx: &Context,
    rng: &mut StdRng,
    dtype: DType,
    shape: &[usize],
    scan: &Scan,
    dyadic: bool,
) {
    let n: usize = shape.iter().product();
    let len = shape.last().copied().unwrap_or(1);
    let rows = n.checked_div(len).unwrap_or(0);
    let d = data(rng, dtype, n, dyadic);
    let inp = upload(ctx, dtype, &d, shape);
    let got =
        run_scan(ctx, &inp, scan).unwrap_or_else(|e| panic!("{dtype} {shape:?} {scan:?}: {e}"));
    let want = scan_reference(&d, rows, len, scan.op, scan.exclusive);
    let out = scan.op.output(dtype);
    let what = format!(
        "{} {dtype} {shape:?} {:?} excl={} sg={}",
        scan.op.name(),
        scan.algorithm,
        scan.exclusive,
        ctx.tuning().subgroups
    );
    // Integer scans, min/max and dyadic float sums are exact.
    let exact = dyadic || !out.is_float() || scan.op != ScanOp::Add;
    check_scan(&what, scan.op, out, &got, &want, ctx.scan_tile(), exact);
}

/// Lengths at the tile's edges and over many tiles, for `ctx`.
fn edge_lengths(ctx: &Context) -> Vec<usize> {
    let tile = ctx.scan_tile();
    vec![
        1,
        2,
        5,
        tile - 1,
        tile,
        tile + 1,
        3 * tile + 5,
        37 * tile + 3,
    ]
}

/// Every operation, inclusive and exclusive, both algorithms, `dtypes`, whole arrays of the edge
/// lengths, on `ctx`.
fn sweep_whole_arrays(ctx: &Context, rng: &mut StdRng, dtypes: &[DType]) {
    let mut sweep = common::Sweep::scaled("whole-array scans", 0.5);
    for alg in ALGORITHMS {
        for op in ScanOp::ALL {
            for exclusive in [false, true] {
                for &dtype in dtypes {
                    for n in edge_lengths(ctx) {
                        if !sweep.keep(format_args!("{op:?} {dtype}"), rng) {
                            continue;
                        }
                        let scan = Scan::new(op).exclusive(exclusive).algorithm(alg);
                        check_case(ctx, rng, dtype, &[n], &scan, false);
                    }
                }
            }
        }
    }
    sweep.finish();
}

/// The 32-bit types, whole arrays of lengths 1 .. 37 tiles, on the default context (subgroups
/// where the device has them).
#[test]
fn whole_arrays_at_tile_edges() {
    let mut rng = common::rng("whole_arrays_at_tile_edges");
    sweep_whole_arrays(
        common::ctx(),
        &mut rng,
        &[DType::F32, DType::I32, DType::U32],
    );
}

/// The same on the shared-memory group step (no subgroup operations), f32 and i32. Where the
/// device has no subgroups the default context already runs that step (the test above), so
/// this one would repeat it kernel for kernel and is skipped (GL in CI).
#[test]
fn whole_arrays_without_subgroups() {
    if !common::ctx().tuning().subgroups {
        eprintln!("no subgroups here: whole_arrays_at_tile_edges covered the shared-memory step");
        return;
    }
    let mut rng = common::rng("whole_arrays_without_subgroups");
    sweep_whole_arrays(common::ctx_fallback(), &mut rng, &[DType::F32, DType::I32]);
}

/// f16 and bf16 input, f32 results: sums and maxima, both algorithms, odd lengths (a packed
/// word split across the end). A sweep: `WGPU_REDUCE_SWEEP` samples it (CI's GL run).
#[test]
fn half_inputs() {
    let mut rng = common::rng("half_inputs");
    let ctx = common::ctx();
    let mut sweep = common::Sweep::scaled("16-bit scans", 0.5);
    for alg in ALGORITHMS {
        for op in [ScanOp::Add, ScanOp::Max] {
            for dtype in [DType::F16, DType::BF16] {
                for n in edge_lengths(ctx) {
                    if !sweep.keep(format_args!("{op:?} {dtype}"), &mut rng) {
                        continue;
                    }
                    let scan = Scan::new(op).exclusive(n % 2 == 1).algorithm(alg);
                    check_case(ctx, &mut rng, dtype, &[n], &scan, false);
                }
            }
        }
    }
    sweep.finish();
}

/// Rows of many lengths (short rows packed several to a tile, rows of one tile, rows of many
/// tiles), unaligned lengths, 3-D arrays, both algorithms and both group steps.
#[test]
fn rows_of_many_lengths() {
    let mut rng = common::rng("rows_of_many_lengths");
    let mut sweep = common::Sweep::scaled("rows of many lengths", 0.5);
    for (c, ctx) in common::contexts().into_iter().enumerate() {
        let tile = ctx.scan_tile();
        let lens = [
            1,
            2,
            3,
            4,
            7,
            64,
            100,
            511,
            512,
            513,
            1000,
            1025,
            tile / 2,
            tile / 2 + 1,
            tile - 1,
            tile + 3,
            // Rows off a 16-byte boundary are tiled from the boundary before them, so these
            // span one tile more than they need where they start on one: an empty last tile.
            2 * tile - 1,
            3 * tile - 2,
            5 * tile + 4,
        ];
        for &len in &lens {
            for rows in [3, 17] {
                for (i, alg) in ALGORITHMS.into_iter().enumerate() {
                    if !sweep.keep(format_args!("{alg:?} context {c}"), &mut rng) {
                        continue;
                    }
                    let op = ScanOp::ALL[(len + i) % 3];
                    let dtype = [DType::F32, DType::I32, DType::U32, DType::F16][(len + rows) % 4];
                    let scan = Scan::new(op).exclusive(rows == 17).algorithm(alg);
                    check_case(ctx, &mut rng, dtype, &[rows, len], &scan, false);
                }
            }
        }
        let scan = Scan::new(ScanOp::Add);
        check_case(ctx, &mut rng, DType::F32, &[2, 3, 1001], &scan, false);
        check_case(
            ctx,
            &mut rng,
            DType::I32,
            &[4, 1, 2, 2 * tile + 1],
            &scan.axis(3),
            false,
        );
    }
    sweep.finish();
}

/// The look-back's paths: fallback forced (every tile reduces all the tiles before it in its
/// row itself), no spinning at all (falls back whenever a predecessor is not ready), aggregates
/// only (every tile combines its predecessors' published totals back to the row's start, over
/// several windows in rows of more tiles than a workgroup has invocations), and every third
/// tile's state hidden (windows consumed in part, then a wait and a fallback past the hidden
/// tile; with aggregates only, too). Exact data, so any tile's total counted twice or missed
/// shows. Where the sweep is cut short (CI's GL run, where llvmpipe compiles a look-back kernel
/// for about 13 s: every operation on every shape would be 32 kernels, about 7 minutes), each
/// shape takes one operation, drawn once, in every configuration: these paths are the same for
/// every operation.
#[test]
fn lookback_fallback_paths() {
    use wgpu_reduce::kernels::{scan_tile_len, SCAN_SLOTS};
    let mut rng = common::rng("lookback_fallback_paths");
    let cut = common::sweep_fraction() < 1.0;
    let mut checked = 0;
    for ctx in common::contexts() {
        let tile = ctx.scan_tile();
        // One row of more than `scan_lookback_max_tiles` tiles: its look-back takes the larger
        // workgroup where the device allows it (longer tiles, a wider window).
        let max = ctx.tuning().scan_lookback_max_tiles;
        let wide_tile = ctx.scan_lookback_tile(1, (max + 1) * tile);
        let wide = scan_tile_len(ctx.tuning().scan_lookback_workgroup_size) as usize;
        assert!(
            wide_tile == wide || wide_tile == tile,
            "look-back tile {wide_tile} of one long row (workgroup tile {tile})"
        );
        // The workgroup size of that look-back (4 * SCAN_SLOTS elements an invocation).
        let window = wide_tile / (4 * SCAN_SLOTS as usize);
        let shapes = [
            (DType::I32, vec![40 * tile + 7]),
            (DType::F32, vec![3, 9 * tile + 1]),
            (DType::U32, vec![2, 16 * tile]),
            (DType::F32, vec![(max + 3) * tile + 1]),
            // A row of more tiles than one window reads, for the walks that go back to the
            // row's start (only with aggregates only and nothing hidden: with forced fallback
            // or hidden states each walk would reduce a third of the row's tiles itself,
            // quadratic work).
            (DType::I32, vec![(window + 5) * wide_tile + 3]),
        ];
        let ops: Vec<Vec<ScanOp>> = shapes
            .iter()
            .map(|_| {
                if cut {
                    vec![ScanOp::ALL[rng.gen_range(0..ScanOp::ALL.len())]]
                } else {
                    ScanOp::ALL.to_vec()
                }
            })
            .collect();
        // Forced fallback with one step's spin: each predecessor takes spin_limit + 1 steps
        // that consume nothing before its fallback.
        for (force, spins, aggregates, hide) in [
            (true, 1, false, false),
            (false, 0, false, false),
            (false, 8, true, false),
            (false, 2, false, true),
            (false, 1, true, true),
        ] {
            let long = !force && aggregates && !hide;
            for (k, (dtype, shape)) in shapes.iter().enumerate() {
                if k == shapes.len() - 1 && !long {
                    continue;
                }
                for &op in &ops[k] {
                    let scan = fallback_path(op, (force, spins, aggregates, hide));
                    check_case(ctx, &mut rng, *dtype, shape, &scan, true);
                    checked += 1;
                }
            }
        }
    }
    // Per context: 4 shapes in each of the 5 configurations and the long row in one.
    let per_shape = if cut { 1 } else { ScanOp::ALL.len() };
    assert_eq!(checked, common::contexts().len() * (5 * 4 + 1) * per_shape);
}

/// A look-back scan of `op` (exclusive for min) through one of the fallback paths: forced
/// fallback, spin limit, aggregates only, every third state hidden.
fn fallback_path(op: ScanOp, (force, spins, aggregates, hide): (bool, u32, bool, bool)) -> Scan {
    Scan::new(op)
        .exclusive(op == ScanOp::Min)
        .algorithm(ScanAlgorithm::DecoupledFallback)
        .force_fallback(force)
        .spin_limit(spins)
        .aggregates_only(aggregates)
        .hide_some(hide)
}

/// The long length of the scan tests: 2^24 + 7; 2^22 + 7 on GL, where llvmpipe runs CI's
/// second pass of the suite on one test thread and these cases took most of a minute (the
/// Vulkan pass covers 2^24 + 7 with both algorithms).
fn long_len(ctx: &Context) -> usize {
    if ctx.capabilities().adapter.backend == wgpu::Backend::Gl {
        (1 << 22) + 7
    } else {
        (1 << 24) + 7
    }
}

/// Float sums of multiples of 1/16: every partial sum is exact in f32, so the scan must equal
/// the f64 reference exactly (tolerance 0), on `long_len` elements and on many rows.
#[test]
fn exact_float_sums_large() {
    let mut rng = common::rng("exact_float_sums_large");
    let ctx = common::ctx();
    for alg in algorithms(&mut rng) {
        check_case(
            ctx,
            &mut rng,
            DType::F32,
            &[long_len(ctx)],
            &Scan::new(ScanOp::Add).algorithm(alg),
            true,
        );
        check_case(
            ctx,
            &mut rng,
            DType::U32,
            &[long_len(ctx)],
            &Scan::new(ScanOp::Add).algorithm(alg).exclusive(true),
            true,
        );
        check_case(
            ctx,
            &mut rng,
            DType::F32,
            &[1000, 3001],
            &Scan::new(ScanOp::Add).algorithm(alg),
            true,
        );
    }
}

/// Random f32 sums of `long_len` values against the stated tolerance; reports the largest error.
#[test]
fn float_sum_accuracy() {
    let mut rng = common::rng("float_sum_accuracy");
    let ctx = common::ctx();
    for alg in algorithms(&mut rng) {
        check_case(
            ctx,
            &mut rng,
            DType::F32,
            &[long_len(ctx)],
            &Scan::new(ScanOp::Add).algorithm(alg),
            false,
        );
    }
}

/// One row of at most `scan_lookback_small_tiles` tiles takes its look-back at half the
/// workgroup size (`Tuning::scan_lookback_small_tiles`): rows at the edges of those
/// half tiles and of the limit, every operation, f32 and i32, checked; one row past the limit
/// keeps the full tile.
#[test]
fn single_rows_of_few_tiles_take_half_tiles() {
    let mut rng = common::rng("single_rows_of_few_tiles_take_half_tiles");
    let ctx = common::ctx();
    let tile = ctx.scan_tile();
    let limit = ctx.tuning().scan_lookback_small_tiles;
    let half = tile / 2;
    // Half of 64 invocations is no workgroup size the kernels are built for.
    let want = if ctx.tuning().workgroup_size > 64 {
        half
    } else {
        tile
    };
    assert_eq!(ctx.scan_lookback_tile(1, limit * tile), want);
    assert_eq!(ctx.scan_lookback_tile(1, limit * tile + 1), tile);
    assert_eq!(ctx.scan_lookback_tile(2, 3 * tile), tile);
    let lens = [3 * half + 1, 5 * half - 1, limit * tile, limit * tile + 1];
    let mut checked = 0;
    for len in lens {
        for op in ScanOp::ALL {
            for dtype in [DType::F32, DType::I32] {
                let exclusive = rng.gen::<bool>();
                let scan = Scan::new(op)
                    .exclusive(exclusive)
                    .algorithm(ScanAlgorithm::DecoupledFallback);
                check_case(ctx, &mut rng, dtype, &[len], &scan, false);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, lens.len() * ScanOp::ALL.len() * 2);
}

/// A context with at most 3 workgroups per pass and 64-invocation workgroups (tiles of 1024):
/// every reduce-then-scan pass loops over many tiles per workgroup, in both orders (tiles
/// `w, w + groups, ...`, and reversed runs: contiguous runs, the downsweep from the end), with
/// the fused downsweep (these scans have at most 4 tiles per invocation) and without it (a pass
/// scans the tile totals).
#[test]
fn workgroups_loop_over_tiles() {
    let mut rng = common::rng("workgroups_loop_over_tiles");
    // An empty range: no reversed runs; every size: reversed runs.
    #[allow(clippy::reversed_empty_ranges)]
    let orders = [
        (1..=0, 1024),
        (0..=u64::MAX, 1024),
        (1..=0, 0),
        (0..=u64::MAX, 0),
    ];
    // llvmpipe's GL compiler takes about a second a kernel, and each context compiles its
    // own: on GL, the fused pass in one order and the three passes in the other.
    let gl = common::ctx().capabilities().adapter.backend == wgpu::Backend::Gl;
    for (k, (runs, fused)) in orders.into_iter().enumerate() {
        if gl && (k == 1 || k == 2) {
            continue;
        }
        let options = ContextOptions::default()
            .with_tuning({
                let mut t = wgpu_reduce::Tuning::default();
                t.workgroup_size = 64;
                t.target_workgroups = 3;
                t.scan_tiles_per_workgroup = 10;
                t.scan_reversed_runs_bytes = (*runs.start(), *runs.end());
                t.scan_fused_max_tiles = fused;
                t
            })
            .with_testing(wgpu_reduce::Testing::poisoned());
        let ctx = Context::with_options(options).expect("context");
        assert_eq!(ctx.scan_tile(), 1024);
        loop_over_tiles(&ctx, &mut rng);
    }
}

fn loop_over_tiles(ctx: &Context, rng: &mut StdRng) {
    for alg in algorithms(rng) {
        for (dtype, shape) in [
            (DType::I32, vec![30 * 1024 + 5]),
            (DType::F32, vec![4, 7 * 1024 + 3]),
            (DType::U32, vec![5000, 3]),
            // 4 tiles in 3 runs of 2: the last run is empty.
            (DType::F32, vec![4 * 1024 - 100]),
        ] {
            for op in ScanOp::ALL {
                let scan = Scan::new(op).exclusive(op == ScanOp::Max).algorithm(alg);
                check_case(ctx, rng, dtype, &shape, &scan, true);
            }
        }
    }
}

/// Reduce-then-scan of few tiles takes two passes (tile totals, then a downsweep that combines
/// the totals before each tile itself); of more tiles than `scan_fused_max_tiles`, or with it
/// at 0, three (the totals are scanned by a pass of their own). Both are checked element by
/// element.
#[test]
fn fused_downsweep_saves_a_pass() {
    let mut rng = common::rng("fused_downsweep_saves_a_pass");
    let mut checked = 0;
    // On GL (about a second a kernel, per context): the sum only.
    let gl = common::ctx().capabilities().adapter.backend == wgpu::Backend::Gl;
    let ops: &[ScanOp] = if gl { &[ScanOp::Add] } else { &ScanOp::ALL };
    for (fused, passes) in [(1024, 2), (0, 3), (20, 3)] {
        let options = ContextOptions::default()
            .with_tuning({
                let mut t = wgpu_reduce::Tuning::default();
                t.workgroup_size = 64;
                t.scan_fused_max_tiles = fused;
                t
            })
            .with_testing(wgpu_reduce::Testing::poisoned());
        let ctx = &Context::with_options(options).expect("context");
        assert_eq!(ctx.scan_tile(), 1024);
        // One row of 31 tiles; 3 rows of 9 tiles (27 in all); one row of 600 tiles, whose two
        // passes take 256 workgroups (at most 4 run totals per invocation), so runs of 3.
        for (dtype, shape, tiles) in [
            (DType::F32, vec![30 * 1024 + 5], 31),
            (DType::I32, vec![3, 8 * 1024 + 8], 27),
            (DType::U32, vec![600 * 1024 - 7], 600),
        ] {
            let fused_here = fused >= tiles;
            for &op in ops {
                for exclusive in [false, true] {
                    let scan = Scan::new(op)
                        .exclusive(exclusive)
                        .algorithm(ScanAlgorithm::ReduceThenScan);
                    check_case(ctx, &mut rng, dtype, &shape, &scan, true);
                    // The scan's passes, counted on a recording of the scan alone.
                    let x = ctx.upload(&vec![1i32; shape.iter().product()]).unwrap();
                    let x = x.reshape(&shape).unwrap();
                    let d0 = ctx.stats().dispatches;
                    let mut rec = ctx.recorder();
                    let out = rec.scan::<i32, i32>(&x, &scan).unwrap();
                    rec.submit().unwrap().wait().unwrap();
                    drop(out);
                    let want = if fused_here { 2 } else { passes };
                    assert_eq!(
                        ctx.stats().dispatches - d0,
                        want,
                        "{shape:?} {op:?} fused_max={fused}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 3 * 3 * ops.len() * 2);
}

/// A context whose scans take tiles of 1,024 (workgroups of 64), so that scans of many tiles
/// stay small; its temporaries are poisoned.
fn tiles_of_1024() -> Context {
    let options = ContextOptions::default()
        .with_tuning({
            let mut t = wgpu_reduce::Tuning::default();
            t.workgroup_size = 64;
            t
        })
        .with_testing(wgpu_reduce::Testing::poisoned());
    let ctx = Context::with_options(options).expect("context");
    assert_eq!(ctx.scan_tile(), 1024);
    ctx
}

/// [`tiles_of_1024`], its tile length, and a cumsum forced to the look-back.
fn lookback_case() -> (Context, usize, Scan) {
    let ctx = tiles_of_1024();
    let tile = ctx.scan_tile();
    let lookback = Scan::new(ScanOp::Add).algorithm(ScanAlgorithm::DecoupledFallback);
    (ctx, tile, lookback)
}

/// `count` arrays of random i32, each of a length drawn from `lens`.
fn random_arrays(
    rng: &mut StdRng,
    count: usize,
    lens: std::ops::RangeInclusive<usize>,
) -> Vec<Vec<i32>> {
    (0..count)
        .map(|_| {
            let n = rng.gen_range(lens.clone());
            (0..n).map(|_| rng.gen()).collect()
        })
        .collect()
}

/// The inclusive running sum of `v`, wrapping.
fn prefix(v: &[i32]) -> Vec<i32> {
    v.iter()
        .scan(0i32, |acc, &a| {
            *acc = acc.wrapping_add(a);
            Some(*acc)
        })
        .collect()
}

/// Look-back scans of up to 1,024 tiles keep their states in the context's buffer of zeroes,
/// which each scan's last workgroup clears again: one pass, no fill. Scans of decreasing and
/// increasing tile counts (one above that, which takes a cleared leased buffer and two passes),
/// with forced fallback and hidden states among them, one after another in one recording and
/// then again in a second submission: a state left behind by one scan would be read as a
/// predecessor's by the next and its sums would be wrong.
#[test]
fn lookback_states_stay_clean_between_scans() {
    let mut rng = common::rng("lookback_states_stay_clean_between_scans");
    let (ctx, tile, lookback) = lookback_case();
    let ctx = &ctx;
    // (shape, scan, passes)
    let cases = [
        (vec![700 * tile - 3], lookback, 1),
        (vec![3 * tile], lookback, 1),
        (vec![1024 * tile], lookback, 1),
        (vec![1025 * tile - 1], lookback, 2),
        (vec![40 * tile + 1], lookback.force_fallback(true), 1),
        (
            vec![5, 3 * tile - 1],
            lookback.hide_some(true).spin_limit(1),
            1,
        ),
        (vec![1024 * tile], lookback, 1),
        (vec![2 * tile], lookback, 1),
    ];
    let inputs: Vec<(Vec<i32>, _)> = cases
        .iter()
        .map(|(shape, _, _)| {
            let v: Vec<i32> = (0..shape.iter().product::<usize>())
                .map(|_| rng.gen())
                .collect();
            let x = ctx.upload(&v).unwrap().reshape(shape).unwrap();
            (v, x)
        })
        .collect();
    let want: Vec<Vec<i32>> = cases
        .iter()
        .zip(&inputs)
        .map(|((shape, _, _), (v, _))| {
            let len = *shape.last().unwrap();
            v.chunks(len).flat_map(prefix).collect()
        })
        .collect();
    let mut checked = 0;
    for round in 0..2 {
        let mut rec = ctx.recorder();
        let reads: Vec<_> = cases
            .iter()
            .zip(&inputs)
            .map(|((_, scan, _), (_, x))| {
                let out = rec.scan::<i32, i32>(x, scan).unwrap();
                rec.read(&out).unwrap()
            })
            .collect();
        let res = rec.submit().unwrap().wait().unwrap();
        for (i, t) in reads.iter().enumerate() {
            assert_eq!(
                res.get(t).unwrap(),
                want[i],
                "round {round}, case {i}: {:?}",
                cases[i].0
            );
            checked += 1;
        }
    }
    // The passes of each scan, recorded alone.
    for ((shape, scan, passes), (_, x)) in cases.iter().zip(&inputs) {
        let d0 = ctx.stats().dispatches;
        let mut rec = ctx.recorder();
        let out = rec.scan::<i32, i32>(x, scan).unwrap();
        rec.submit().unwrap().wait().unwrap();
        drop(out);
        assert_eq!(ctx.stats().dispatches - d0, *passes, "{shape:?}");
    }
    assert_eq!(checked, 2 * cases.len());
}

/// Look-back scans of one recording that share no array take the context's 16 state buffers in
/// turn, so the first 16 wait for nothing and each later one only for the scan 16 before it
/// (`Recorder::barriers`); reductions beside them take 16 stand-ins at binding 4 in turn. 40
/// scans of 2-40 tiles (20 of one input, 20 of their own) with a sum of a short array after
/// each, then a scan of a scan's result and a sum of many workgroups in a recording of their
/// own, all checked: a state buffer that two scans used at once, or one left unclean for a later
/// scan, gives wrong sums.
#[test]
fn independent_scans_take_state_buffers_in_turn() {
    let mut rng = common::rng("independent_scans_take_state_buffers_in_turn");
    let (ctx, tile, lookback) = lookback_case();
    let ctx = &ctx;
    let inputs = random_arrays(&mut rng, 20, tile + 1..=40 * tile);
    // Short enough for a sum in one pass.
    let shorts = random_arrays(&mut rng, 40, 1..=200);
    let arrays: Vec<_> = inputs.iter().map(|v| ctx.upload(v).unwrap()).collect();
    let short_arrays: Vec<_> = shorts.iter().map(|v| ctx.upload(v).unwrap()).collect();
    let mut rec = ctx.recorder();
    // Scans 0-19 of the 20 inputs, 20-39 of the first input again.
    let scans: Vec<_> = (0..40)
        .map(|j| {
            let x = &arrays[if j < 20 { j } else { 0 }];
            let out = rec.scan::<i32, i32>(x, &lookback).unwrap();
            let total = rec.sum(&short_arrays[j], .., false).unwrap();
            (rec.read(&out).unwrap(), rec.read(&total).unwrap(), j)
        })
        .collect();
    assert_eq!(rec.dispatch_count(), 80, "one pass per scan and per sum");
    // Each scan takes states of its own, each sum (dispatch 2j + 1) a stand-in of its own.
    assert_eq!(rec.barriers(), 0);
    let res = rec.submit().unwrap().wait().unwrap();
    let mut checked = 0;
    for (out, total, j) in &scans {
        let v = &inputs[if *j < 20 { *j } else { 0 }];
        let want = prefix(v);
        assert_eq!(
            res.get(out).unwrap(),
            want,
            "scan {j} of {} elements",
            v.len()
        );
        assert_eq!(
            res.scalar(total).unwrap(),
            *prefix(&shorts[*j]).last().unwrap(),
            "sum {j}"
        );
        checked += 1;
    }
    assert_eq!(checked, 40);
    let mut rec = ctx.recorder();
    let once = rec.scan::<i32, i32>(&arrays[1], &lookback).unwrap();
    assert_eq!(rec.barriers(), 0);
    let twice = rec.scan::<i32, i32>(&once, &lookback).unwrap();
    assert_eq!(
        rec.barriers(),
        1,
        "the second scan reads the first's result"
    );
    let twice = rec.read(&twice).unwrap();
    // A sum of many workgroups in one pass (its last workgroup combines), in clean states of
    // its own: it waits for nothing.
    let d0 = rec.dispatch_count();
    let total = rec.sum(&arrays[1], .., false).unwrap();
    assert_eq!(rec.dispatch_count() - d0, 1);
    assert_eq!(rec.barriers(), 1);
    let total = rec.read(&total).unwrap();
    let res = rec.submit().unwrap().wait().unwrap();
    assert_eq!(res.get(&twice).unwrap(), prefix(&prefix(&inputs[1])));
    assert_eq!(
        res.scalar(&total).unwrap(),
        *prefix(&inputs[1]).last().unwrap()
    );
}

/// Past the context's 256 buffers of each kind, a recording's dispatches meet them again (and
/// wait); every result is still right.
#[test]
fn independent_operations_past_the_slots_wait_and_stay_right() {
    let mut rng = common::rng("independent_operations_past_the_slots_wait_and_stay_right");
    let (ctx, tile, lookback) = lookback_case();
    let ctx = &ctx;
    let count = 270;
    let inputs = random_arrays(&mut rng, count, tile + 1..=3 * tile);
    let shorts = random_arrays(&mut rng, count, 1..=200);
    let arrays: Vec<_> = inputs.iter().map(|v| ctx.upload(v).unwrap()).collect();
    let short_arrays: Vec<_> = shorts.iter().map(|v| ctx.upload(v).unwrap()).collect();
    let mut rec = ctx.recorder();
    let tokens: Vec<_> = (0..count)
        .map(|j| {
            let out = rec.scan::<i32, i32>(&arrays[j], &lookback).unwrap();
            let total = rec.sum(&short_arrays[j], .., false).unwrap();
            (rec.read(&out).unwrap(), rec.read(&total).unwrap())
        })
        .collect();
    assert_eq!(
        rec.dispatch_count(),
        2 * count,
        "one pass per scan and per sum"
    );
    // Scan j (dispatch 2j) from 256 on meets scan j - 256's states; sum j (dispatch 2j + 1,
    // the only dispatches with stand-ins) from 128 on the stand-in of dispatch 2j + 1 - 256.
    assert_eq!(rec.barriers(), (count - 256) + (count - 128));
    let res = rec.submit().unwrap().wait().unwrap();
    let mut checked = 0;
    for (j, (out, total)) in tokens.iter().enumerate() {
        assert_eq!(res.get(out).unwrap(), prefix(&inputs[j]), "scan {j}");
        let want = *prefix(&shorts[j]).last().unwrap();
        assert_eq!(res.scalar(total).unwrap(), want, "sum {j}");
        checked += 1;
    }
    assert_eq!(checked, count);
}

/// A scan recorded with reductions shares their submission; results feed later operations.
#[test]
fn scans_share_a_submission_with_reductions() {
    // A context of its own: the shared ones count other tests' submissions too.
    let ctx = &Context::new().unwrap();
    let mut rng = common::rng("scans_share_a_submission_with_reductions");
    let v: Vec<i32> = (0..100_003).map(|_| rng.gen_range(-1000..1000)).collect();
    let x = ctx.upload(&v).unwrap();
    let before = ctx.stats().submissions;
    let mut rec = ctx.recorder();
    let c = rec.cumsum(&x).unwrap();
    let total = rec.sum(&x, .., false).unwrap();
    let hi = rec.max(&c, .., false).unwrap(); // the largest prefix sum, from the scan's result
    let m = rec.cummax(&x).unwrap();
    let t = (
        rec.read(&c).unwrap(),
        rec.read(&total).unwrap(),
        rec.read(&hi).unwrap(),
        rec.read(&m).unwrap(),
    );
    let res = rec.submit().unwrap().wait().unwrap();
    assert_eq!(
        ctx.stats().submissions,
        before + 1,
        "one submission for all of it"
    );
    let mut acc = 0i32;
    let want: Vec<i32> = v
        .iter()
        .map(|&a| {
            acc = acc.wrapping_add(a);
            acc
        })
        .collect();
    assert_eq!(res.get(&t.0).unwrap(), want);
    assert_eq!(res.scalar(&t.1).unwrap(), *want.last().unwrap());
    assert_eq!(res.scalar(&t.2).unwrap(), *want.iter().max().unwrap());
    let mut run = i32::MIN;
    let want_max: Vec<i32> = v
        .iter()
        .map(|&a| {
            run = run.max(a);
            run
        })
        .collect();
    assert_eq!(res.get(&t.3).unwrap(), want_max);
}

/// Into a caller's array (poisoned first), from f16, with the blocking helpers; 0-d and empty.
#[test]
fn scan_to_a_callers_array_and_edge_shapes() {
    let ctx = common::ctx();
    let h: Vec<half::f16> = [1.5f32, -2.0, 0.25, 8.0, -0.5]
        .iter()
        .map(|&f| half::f16::from_f32(f))
        .collect();
    let x = ctx.upload(&h).unwrap();
    let out = ctx.upload(&[f32::NAN; 5]).unwrap();
    let mut rec = ctx.recorder();
    rec.scan_into(&x, &Scan::new(ScanOp::Add).exclusive(true), &out)
        .unwrap();
    rec.submit().unwrap().wait().unwrap();
    assert_eq!(ctx.read(&out).unwrap(), vec![0.0, 1.5, -0.5, -0.25, 7.75]);
    let c = ctx.run(|rec| rec.cumsum(&x)).unwrap();
    assert_eq!(c, vec![1.5, -0.5, -0.25, 7.75, 7.25]);

    // 0-d: one element (axis 0 and -1 allowed, as PyTorch allows).
    let s = ctx.upload_shaped(&[7u32], &[]).unwrap();
    for axis in [0, -1] {
        let mut rec = ctx.recorder();
        let y = rec
            .scan::<u32, u32>(&s, &Scan::new(ScanOp::Add).axis(axis))
            .unwrap();
        let t = rec.read(&y).unwrap();
        assert_eq!(y.shape(), &[] as &[usize]);
        assert_eq!(
            rec.submit().unwrap().wait().unwrap().get(&t).unwrap(),
            vec![7]
        );
    }
    // Empty: an empty result of the same shape, no dispatch.
    for shape in [vec![0], vec![3, 0], vec![0, 5]] {
        let e = ctx.upload_shaped(&Vec::<f32>::new(), &shape).unwrap();
        let mut rec = ctx.recorder();
        let y = rec.cumsum(&e).unwrap();
        assert_eq!(rec.dispatch_count(), 0);
        assert_eq!(y.shape(), &shape[..]);
    }
}

/// NaN and infinities: a NaN propagates from its position on (min, max, sums); +inf and -inf
/// in a sum give NaN from where both have been seen.
#[test]
fn nan_and_infinity_propagate_from_their_position() {
    let mut rng = common::rng("nan_and_infinity_propagate_from_their_position");
    let ctx = common::ctx();
    let tile = ctx.scan_tile();
    for alg in algorithms(&mut rng) {
        for n in [9, 3 * tile + 1] {
            let mut v: Vec<f32> = (0..n).map(|i| (i % 13) as f32 - 6.0).collect();
            let p = n / 2;
            v[p] = f32::NAN;
            let x = ctx.upload(&v).unwrap();
            for op in ScanOp::ALL {
                let y = ctx
                    .run(|rec| rec.scan::<f32, f32>(&x, &Scan::new(op).algorithm(alg)))
                    .unwrap();
                let got = y;
                assert!(
                    got[..p].iter().all(|g| !g.is_nan()),
                    "{op:?} {alg:?} n={n}: NaN before {p}"
                );
                assert!(
                    got[p..].iter().all(|g| g.is_nan()),
                    "{op:?} {alg:?} n={n}: not NaN from {p}"
                );
            }
            let mut w = vec![1.0f32; n];
            w[1] = f32::INFINITY;
            w[n - 2] = f32::NEG_INFINITY;
            let y = ctx.run(|rec| rec.cumsum(&ctx.upload(&w).unwrap())).unwrap();
            let got = y;
            assert_eq!(got[0], 1.0);
            assert!(
                got[1..n - 2].iter().all(|&g| g == f32::INFINITY),
                "{alg:?} n={n}: +inf run"
            );
            assert!(
                got[n - 2..].iter().all(|g| g.is_nan()),
                "{alg:?} n={n}: inf + -inf"
            );
        }
    }
}

/// Float min/max scans compare order-preserving keys: -0.0 below +0.0 (a max of the two is
/// +0.0, a min -0.0, in either order: IEEE 754-2019 maximum and minimum), subnormals exact,
/// infinities, and a NaN of either sign propagating from its position on. Checked bit for bit
/// (NaN as any NaN) against a reference of the same order, over whole arrays and rows of several
/// tiles, inclusive and exclusive (whose first element is the identity, -inf for max).
#[test]
fn float_min_max_scans_order_zeros_and_keep_subnormals() {
    let mut rng = common::rng("float_min_max_scans_order_zeros_and_keep_subnormals");
    let ctx = common::ctx();
    let tile = ctx.scan_tile();
    let pool = [
        -0.0f32,
        0.0,
        f32::from_bits(1),
        -f32::from_bits(1),
        1e-40,
        -3e-39,
        1.0,
        -2.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        i ^ ((i >> 31) & 0x7fff_ffff)
    };
    for (rows, len) in [(1, 3 * tile + 5), (3, 2 * tile + 1), (5, 1001)] {
        let n = rows * len;
        let mut v: Vec<f32> = (0..n).map(|_| pool[rng.gen_range(0..pool.len())]).collect();
        // A negative NaN (sign bit and payload set) three quarters into each row but the last.
        for r in 0..rows - 1 {
            v[r * len + 3 * len / 4] = f32::from_bits(0xffc0_0001);
        }
        let x = ctx.upload_shaped(&v, &[rows, len]).unwrap();
        for alg in algorithms(&mut rng) {
            for (op, exclusive) in [(ScanOp::Max, false), (ScanOp::Min, true)] {
                let scan = Scan::new(op).exclusive(exclusive).algorithm(alg);
                let got = ctx.run(|rec| rec.scan::<f32, f32>(&x, &scan)).unwrap();
                let identity = if op == ScanOp::Max {
                    f32::NEG_INFINITY
                } else {
                    f32::INFINITY
                };
                for (r, row) in v.chunks(len).enumerate() {
                    let mut run = identity;
                    for (k, &e) in row.iter().enumerate() {
                        let inc = if run.is_nan() || e.is_nan() {
                            f32::NAN
                        } else if (op == ScanOp::Max) == (key(e) > key(run)) && key(e) != key(run) {
                            e
                        } else {
                            run
                        };
                        let want = if exclusive { run } else { inc };
                        let g = got[r * len + k];
                        let ok = if want.is_nan() {
                            g.is_nan()
                        } else {
                            g.to_bits() == want.to_bits()
                        };
                        assert!(
                            ok,
                            "{op:?} excl={exclusive} {alg:?} {rows}x{len}: element {} is {g:e} \
                             ({:#x}), want {want:e} ({:#x})",
                            r * len + k,
                            g.to_bits(),
                            want.to_bits()
                        );
                        run = inc;
                    }
                }
            }
        }
    }
}

/// Reduce-then-scan float sums are deterministic: bit-identical across runs.
#[test]
fn reduce_then_scan_is_deterministic() {
    let ctx = common::ctx();
    let mut rng = common::rng("reduce_then_scan_is_deterministic");
    let v = common::random_f32(&mut rng, 50 * ctx.scan_tile() + 17);
    let x = ctx.upload(&v).unwrap();
    let scan = Scan::new(ScanOp::Add).algorithm(ScanAlgorithm::ReduceThenScan);
    let first = ctx.run(|rec| rec.scan::<f32, f32>(&x, &scan)).unwrap();
    for _ in 0..3 {
        let again = ctx.run(|rec| rec.scan::<f32, f32>(&x, &scan)).unwrap();
        assert!(first
            .iter()
            .zip(&again)
            .all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}

/// Auto's exception: one row of more than `scan_lookback_row_tiles` tiles (of the larger
/// look-back workgroup, and of the default one), scanned into an output an earlier operation of
/// the recording used from an input none wrote, takes reduce-then-scan (its first pass runs
/// beside the work before it); an input written earlier, or an output no earlier operation used,
/// keeps the look-back. Every result is checked.
#[test]
fn auto_takes_reduce_then_scan_where_only_the_output_waits() {
    let ctx = &Context::new().unwrap();
    let mut rng = common::rng("auto_takes_reduce_then_scan_where_only_the_output_waits");
    let tuning = ctx.tuning();
    let wide = 2 * tuning.scan_lookback_max_tiles * ctx.scan_tile() + rng.gen_range(0..1000);
    let narrow = (tuning.scan_lookback_row_tiles + 1) * ctx.scan_tile() + rng.gen_range(1..1000);
    let mut checked = 0;
    for n in [wide, narrow] {
        checked += usize::from(output_waits_case(ctx, &mut rng, n));
    }
    let lookback = ctx.scan_algorithm(1, narrow) == ScanAlgorithm::DecoupledFallback;
    assert!(checked == 2 || !lookback, "{checked} of 2 lengths checked");
}

/// One length of `auto_takes_reduce_then_scan_where_only_the_output_waits`; false where the
/// adapter takes no look-back for it.
fn output_waits_case(ctx: &Context, rng: &mut StdRng, n: usize) -> bool {
    let (dfb, rts) = (
        ScanAlgorithm::DecoupledFallback,
        ScanAlgorithm::ReduceThenScan,
    );
    if ctx.scan_algorithm(1, n) != dfb {
        eprintln!(
            "skipped: {:?} takes no look-back for {n} elements",
            ctx.capabilities().adapter.name
        );
        return false;
    }
    eprintln!(
        "{n} elements, look-back tiles of {}",
        ctx.scan_lookback_tile(1, n)
    );
    let v: Vec<i32> = (0..n).map(|_| rng.gen_range(-1000..1000)).collect();
    let x = ctx.upload(&v).unwrap();
    let out = ctx.zeros::<i32>(&[n]).unwrap();
    let auto = Scan::new(ScanOp::Add);
    let mut rec = ctx.recorder();
    assert_eq!(
        rec.scan_algorithm(&x, &auto, &out).unwrap(),
        dfb,
        "nothing recorded yet"
    );
    let y = rec.scan::<i32, i32>(&x, &auto).unwrap();
    assert_eq!(rec.dispatch_count(), 1, "the look-back: one pass");
    assert_eq!(
        rec.scan_algorithm(&x, &auto, &out).unwrap(),
        dfb,
        "out unused so far"
    );
    rec.scan_into(&x, &auto, &out).unwrap();
    // On Metal every dispatch runs after the one before it: no first pass runs beside others.
    let beside = matches!(
        ctx.capabilities().adapter.backend,
        wgpu::Backend::Vulkan | wgpu::Backend::Dx12
    );
    let want = if beside { rts } else { dfb };
    let got = rec.scan_algorithm(&x, &auto, &out).unwrap();
    assert_eq!(got, want, "out used, x unwritten");
    let before = rec.dispatch_count();
    rec.scan_into(&x, &auto, &out).unwrap();
    let passes = rec.dispatch_count() - before;
    assert!(
        if beside { passes >= 2 } else { passes == 1 },
        "{passes} passes"
    );
    // y was written by the first scan: its scan waits whatever it takes, and keeps the look-back.
    let z = ctx.zeros::<i32>(&[n]).unwrap();
    rec.scan_into(&y, &auto, &z).unwrap();
    assert_eq!(
        rec.scan_algorithm(&y, &auto, &z).unwrap(),
        dfb,
        "y written earlier"
    );
    let (ty, tout, tz) = (
        rec.read(&y).unwrap(),
        rec.read(&out).unwrap(),
        rec.read(&z).unwrap(),
    );
    let res = rec.submit().unwrap().wait().unwrap();
    let want = prefix(&v);
    assert_eq!(res.get(&ty).unwrap(), want);
    assert_eq!(
        res.get(&tout).unwrap(),
        want,
        "the reduce-then-scan into out, last"
    );
    assert_eq!(res.get(&tz).unwrap(), prefix(&want));
    true
}

/// Rows longer than a tile but no longer than a tile at the larger row workgroup
/// (`Tuning::scan_row_workgroup_size`, 512 invocations where the device allows them) are
/// scanned in one pass, one tile per row: with subgroups and without, every operation, checked
/// element by element, and counted in dispatches against the same rows in a context with the
/// larger workgroup off (two tiles per row, more passes for reduce-then-scan).
#[test]
fn rows_of_one_larger_tile_take_one_pass() {
    use wgpu_reduce::{ContextOptions, Subgroups};
    let row_wg = wgpu_reduce::Tuning::default().scan_row_workgroup_size;
    let mut rng = common::rng("rows_of_one_larger_tile_take_one_pass");
    let make = |row_wg: u32, subgroups: Subgroups| {
        Context::with_options(
            ContextOptions::default()
                .with_subgroups(subgroups)
                .with_tuning({
                    let mut t = wgpu_reduce::Tuning::default();
                    t.scan_row_workgroup_size = row_wg;
                    t
                })
                .with_testing(wgpu_reduce::Testing::poisoned()),
        )
        .expect("context")
    };
    let on = make(row_wg, Subgroups::Auto);
    let on_tree = make(row_wg, Subgroups::Off);
    let off = make(256, Subgroups::Auto);
    let tile = on.scan_tile();
    let lim = &on.capabilities().limits;
    if on.tuning().workgroup_size == 256
        && lim.max_compute_invocations_per_workgroup >= 512
        && lim.max_compute_workgroup_size_x >= 512
        && lim.max_compute_workgroup_storage_size >= 16384
    {
        assert_eq!(
            on.scan_row_tile(),
            2 * tile,
            "row tile where 512 is allowed"
        );
    }
    assert_eq!(off.scan_row_tile(), off.scan_tile(), "row tile when off");
    let row = on.scan_row_tile();
    if row == tile {
        eprintln!("the device does not allow the larger row workgroup: nothing more to test");
        return;
    }
    let dispatches = |rng: &mut StdRng, ctx: &Context, shape: &[usize], i: usize, alg| {
        let op = ScanOp::ALL[i % 3];
        let dtype = [DType::F32, DType::I32, DType::U32, DType::F16][i % 4];
        let scan = Scan::new(op).exclusive(i % 2 == 1).algorithm(alg);
        let before = ctx.stats().dispatches;
        check_case(ctx, rng, dtype, shape, &scan, false);
        ctx.stats().dispatches - before
    };
    let alg = ScanAlgorithm::ReduceThenScan;
    // Without subgroups (as on GL) both contexts would be the same.
    let tree = on.tuning().subgroups.then_some(&on_tree);
    for ctx in [Some(&on), tree].into_iter().flatten() {
        let one_tile = dispatches(&mut rng, ctx, &[3, tile], 0, alg);
        let longer = dispatches(&mut rng, ctx, &[3, row + 1], 1, alg);
        assert!(
            longer > one_tile,
            "rows of {} took {longer} dispatches",
            row + 1
        );
        let slack = dispatches(&mut rng, ctx, &[3, row - 1], 1, alg);
        assert!(
            slack > one_tile,
            "rows of {} (off a 16-byte boundary: more than a tile with the slack) took {slack} \
             dispatches",
            row - 1
        );
        // Rows whose length is not a multiple of 4 need 3 elements of slack in their tile
        // (their tiles start at the 16-byte boundary before them): row - 3 is the longest such.
        let lens = [tile + 1, tile + 3, tile + tile / 2 + 2, row - 3, row];
        for (i, &len) in lens.iter().enumerate() {
            for (j, rows) in [1, 3].into_iter().enumerate() {
                // The shortest and the longest rows always; the others as the sweep asks
                // (a tenth on GL, whose compiler takes seconds per kernel).
                let edge = (i == 0 && j == 1) || (i == lens.len() - 1 && j == 0);
                if !edge && !common::keep_case(&mut rng) {
                    continue;
                }
                let n = dispatches(&mut rng, ctx, &[rows, len], i + j, ALGORITHMS[j]);
                assert_eq!(n, one_tile, "{rows} rows of {len}: one pass");
            }
        }
    }
    let one_tile = dispatches(&mut rng, &off, &[3, tile], 0, alg);
    let n = dispatches(&mut rng, &off, &[3, tile + 1], 1, alg);
    assert!(
        n > one_tile,
        "rows of {} with the row workgroup off: {n} dispatches",
        tile + 1
    );
}

/// Arrays on a caller's buffer that is not padded to 16 bytes (`GpuArray::from_buffer`) are
/// scanned element by element; rows whose length is not a multiple of 4 then keep the plain
/// tiling (no slack). Rows of one tile and of several, both algorithms, exact integer sums.
#[test]
fn unpadded_caller_buffers_with_unaligned_rows() {
    use wgpu::util::DeviceExt;
    use wgpu_reduce::GpuArray;
    let mut rng = common::rng("unpadded_caller_buffers_with_unaligned_rows");
    let ctx = common::ctx();
    let tile = ctx.scan_tile();
    for len in [1001, tile - 1, 2 * tile + 3] {
        // An odd row count keeps the element count odd: the buffer's size is no multiple of 16.
        let rows = 3;
        let data = common::random_i32(&mut rng, rows * len);
        let buffer = ctx
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("unpadded"),
                contents: bytemuck::cast_slice(&data),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            });
        assert_ne!(buffer.size() % 16, 0, "the test needs an unpadded buffer");
        let x = GpuArray::<i32>::from_buffer(ctx, buffer, &[rows, len]).unwrap();
        for alg in ALGORITHMS {
            let scan = Scan::new(ScanOp::Add).exclusive(true).algorithm(alg);
            let got: Vec<i32> = ctx.run(|rec| rec.scan::<i32, i32>(&x, &scan)).unwrap();
            for (r, row) in data.chunks(len).enumerate() {
                let mut run = 0i32;
                for (k, v) in row.iter().enumerate() {
                    let i = r * len + k;
                    assert_eq!(got[i], run, "{rows}x{len} {alg:?}: element {i}");
                    run = run.wrapping_add(*v);
                }
            }
        }
    }
}

/// Dispatches are encoded level by level: ten reduce-then-scan scans of one input side by side,
/// then a scan of the first one's output, give exact results, and the recording waits at one
/// barrier for the ten downsweeps, where in the order recorded it would wait before each (3
/// barriers against 12).
#[test]
fn levelled_dispatches_wait_once_per_pass() {
    let mut rng = common::rng("levelled_dispatches_wait_once_per_pass");
    let rts = Scan::new(ScanOp::Add).algorithm(ScanAlgorithm::ReduceThenScan);
    let mut checked = 0;
    {
        let ctx = common::poisoned_context();
        let n = 5 * ctx.scan_tile() + rng.gen_range(1..1000);
        let v: Vec<i32> = (0..n).map(|_| rng.gen_range(-1000..1000)).collect();
        let x = ctx.upload(&v).unwrap();
        let outs: Vec<_> = (0..10).map(|_| ctx.zeros::<i32>(&[n]).unwrap()).collect();
        let z = ctx.zeros::<i32>(&[n]).unwrap();
        let mut rec = ctx.recorder();
        for o in &outs {
            rec.scan_into(&x, &rts, o).unwrap();
        }
        rec.scan_into(&outs[0], &rts, &z).unwrap();
        assert_eq!(rec.dispatch_count(), 22, "two passes a scan");
        assert_eq!((rec.barriers(), rec.barriers_as_recorded()), (3, 12));
        let tickets: Vec<_> = outs.iter().map(|o| rec.read(o).unwrap()).collect();
        let tz = rec.read(&z).unwrap();
        let res = rec.submit().unwrap().wait().unwrap();
        let want = prefix(&v);
        for (k, t) in tickets.iter().enumerate() {
            assert_eq!(res.get(t).unwrap(), want, "scan {k}");
            checked += 1;
        }
        assert_eq!(res.get(&tz).unwrap(), prefix(&want), "the scan of a scan");
        checked += 1;
    }
    assert_eq!(checked, 11);
}
