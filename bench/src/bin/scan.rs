//! Prefix scans on random data: checks every element against a CPU reference (f64 for floats,
//! wrapping integers), then times the scan and prints GB/s (bytes read + written).
//!
//!   cargo run --release -p wgpu-reduce-bench --bin scan
//!   cargo run --release -p wgpu-reduce-bench --bin scan -- --n 268435456 --dtype u32 --algorithm lookback
//!
//! Options:
//!   --n A,B          whole-array lengths (default 1048576,16777216,67108864)
//!   --shape AxB,..   N-D shapes instead, each row (last axis) scanned independently
//!   --dtype T        f32 | i32 | u32 | f16 | bf16 (f16/bf16 give f32 results)
//!   --op O           add | min | max (default add)
//!   --exclusive      exclusive scan (default inclusive)
//!   --algorithm A    auto | rts (reduce-then-scan) | lookback (decoupled fallback)
//!   --repeat R       timed runs after a warm-up (0.5 s of single scans); medians are printed
//!   --batch K        also time K scans recorded into one submission (default 10); they share
//!                    no array, so the GPU may run them side by side
//!   --serial         the batch's scans all write one array, so each waits for the one before
//!                    it (as kernels on one CUDA stream do)
//!   --csv PATH       append one line per shape
//!   --wg W           workgroup size (64, 128, 256); --no-subgroups: shared-memory group step
//!   --row-wg W       workgroup size for rows of one tile at it (512, the default, or 256: off)
//!   --lookback-wg W  workgroup size of the look-back over one row longer than 128 tiles (512, the
//!                    default where the device allows it, or 256: off)
//!   --lookback-small T   the look-back over one row of at most T tiles at the workgroup size
//!                    runs at half of it (default 48; 0: off)
//!   --max-groups G   workgroups a tile pass aims for (default 1024)
//!   --tiles-per-group K  most tiles a workgroup of a tile pass loops over (default 2)
//!   --fused-tiles T  reduce-then-scan of at most T tiles takes the fused downsweep (default
//!                    1024; 0: off)
//!   --runs-bytes LO,HI   inputs (bytes) whose reduce-then-scan passes take reversed runs
//!                    (default 33554432,268435456; 1,0: none)
//!
//! The tuning options (`--wg` to `--runs-bytes`) start the context from other settings than
//! `Tuning::default()` (`ContextOptions::tuning`).
//!
//! Columns: *wall us* and *gpu us*, one scan alone (host to host; GPU time of its pass);
//! *batch wall* and *batch gpu*, a batch of K scans in one submission, host to host and GPU time,
//! each divided by K; *batch GB/s* from *batch gpu*. The CSV line: `wgpu-reduce`, op, dtype, n,
//! wall, gpu, batch wall, batch gpu (µs), checked, shape, the algorithm of the batch's scans.
//!
//! Exits with status 1 if any element is wrong (the first few are printed), 2 on bad arguments or
//! GPU errors.

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::{reference, scan_ref, support};

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use half::{bf16, f16};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reference::Data;
use scan_ref::{scan_reference, scan_tolerance};
use support::{median, AsF64};
use wgpu_reduce::{Context, DType, Element, GpuArray, Scan, ScanAlgorithm, ScanOp};

struct Args {
    shapes: Vec<Vec<usize>>,
    dtype: DType,
    scan: Scan,
    repeat: usize,
    batch: usize,
    serial: bool,
    csv: Option<String>,
    options: wgpu_reduce::ContextOptions,
    tuning: wgpu_reduce::Tuning,
}

const USAGE: &str = "usage: scan [--n A,B | --shape AxB,..] [--dtype f32|i32|u32|f16|bf16] \
[--op add|min|max] [--exclusive] [--algorithm auto|rts|lookback] [--repeat R] \
[--batch K] [--serial] [--csv PATH] [--wg W] [--row-wg W] [--lookback-wg W] [--lookback-small T] [--max-groups G] [--tiles-per-group K] \
[--fused-tiles T] [--runs-bytes LO,HI] [--no-subgroups]";

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        shapes: [1usize << 20, 1 << 24, 1 << 26]
            .iter()
            .map(|&n| vec![n])
            .collect(),
        dtype: DType::F32,
        scan: Scan::new(ScanOp::Add),
        repeat: 30,
        batch: 10,
        serial: false,
        csv: None,
        options: Default::default(),
        tuning: Default::default(),
    };
    let mut p = Parser::from_env();
    let types = "an element type: f32, i32, u32, f16 or bf16";
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("n") => a.shapes = sizes(&mut p, &flag)?.into_iter().map(|n| vec![n]).collect(),
            Long("shape") => a.shapes = shapes(&mut p, &flag)?,
            Long("dtype") => a.dtype = one(&mut p, &flag, types)?,
            Long("op") => a.scan.op = one(&mut p, &flag, "add, min or max")?,
            Long("exclusive") => a.scan.exclusive = true,
            Long("algorithm") => a.scan.algorithm = one(&mut p, &flag, "auto, rts or lookback")?,
            Long("repeat") => a.repeat = count(&mut p, &flag)?,
            Long("batch") => a.batch = count(&mut p, &flag)?,
            Long("serial") => a.serial = true,
            Long("csv") => a.csv = Some(text(&mut p, &flag)?),
            Long("wg") => a.tuning.workgroup_size = one(&mut p, &flag, "64, 128 or 256")?,
            Long("lookback-wg") => {
                a.tuning.scan_lookback_workgroup_size = one(&mut p, &flag, "512 or 256")?
            }
            Long("lookback-small") => {
                a.tuning.scan_lookback_small_tiles = one(&mut p, &flag, "a whole number")?
            }
            Long("row-wg") => a.tuning.scan_row_workgroup_size = one(&mut p, &flag, "512 or 256")?,
            Long("max-groups") => a.tuning.target_workgroups = count(&mut p, &flag)? as u32,
            Long("tiles-per-group") => {
                a.tuning.scan_tiles_per_workgroup = count(&mut p, &flag)? as u32
            }
            Long("fused-tiles") => {
                a.tuning.scan_fused_max_tiles = one(&mut p, &flag, "a whole number")?
            }
            Long("runs-bytes") => {
                let v: Vec<u64> = list(&mut p, &flag, "two byte counts LO,HI")?;
                let [lo, hi] = v[..] else {
                    return Err(format!("{flag} takes two byte counts LO,HI"));
                };
                a.tuning.scan_reversed_runs_bytes = (lo, hi);
            }
            Long("no-subgroups") => a.options.subgroups = wgpu_reduce::Subgroups::Off,
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("scan.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    a.repeat = a.repeat.max(1);
    a.batch = a.batch.max(1);
    Ok(a)
}

/// One measured shape.
struct Row {
    worst: f64,
    wrong: usize,
    wall: Duration,
    gpu: Option<Duration>,
    batch_wall: Duration,
    batch_gpu: Option<Duration>,
    /// The algorithm of the batch's scans (with `--serial`, of those after the first, which
    /// write the array the first wrote).
    batch_algorithm: ScanAlgorithm,
}

/// Records `k` scans of `x` and submits them; returns (wall, gpu). The (large) result is not
/// read back, so the time is the scans', host to host.
fn timed<T: Element>(
    ctx: &Context,
    x: &GpuArray<T>,
    scan: &Scan,
    k: usize,
    serial: bool,
) -> wgpu_reduce::Result<(Duration, Option<Duration>)> {
    let start = Instant::now();
    let mut rec = ctx.recorder();
    rec.enable_timestamps();
    let mut keep = Vec::with_capacity(k);
    for _ in 0..k {
        match (serial, keep.first()) {
            (true, Some(out)) => rec.scan_into(x, scan, out)?,
            _ => keep.push(rec.scan::<T, T::Acc>(x, scan)?),
        }
    }
    let results = rec.submit()?.wait()?;
    Ok((start.elapsed(), results.gpu_time()))
}

fn measure<T: Element>(
    ctx: &Context,
    args: &Args,
    x: &GpuArray<T>,
    data: &Data,
) -> wgpu_reduce::Result<Row>
where
    T::Acc: AsF64,
{
    let scan = &args.scan;
    let shape = x.shape();
    let (rows, len) = rows_len(shape);
    let want = scan_reference(data, rows, len, scan.op, scan.exclusive);
    let got: Vec<f64> = ctx
        .run(|rec| rec.scan::<T, T::Acc>(x, scan))?
        .into_iter()
        .map(AsF64::as_f64)
        .collect();
    let out = scan.op.output(T::DTYPE);
    let lookback = algorithm_for(ctx, scan, shape) == ScanAlgorithm::DecoupledFallback;
    let tile = if lookback {
        ctx.scan_lookback_tile(rows, len)
    } else {
        ctx.scan_tile()
    };
    let (mut worst, mut wrong) = check(&got, &want, got.len(), scan, out, tile);
    let mut batch_algorithm = algorithm_for(ctx, scan, shape);
    if args.serial && args.batch > 1 {
        // The batch's last scan writes the output: check it, and which algorithm ran.
        let mut rec = ctx.recorder();
        let y = rec.scan::<T, T::Acc>(x, scan)?;
        for _ in 1..args.batch {
            batch_algorithm = rec.scan_algorithm(x, scan, &y)?;
            rec.scan_into(x, scan, &y)?;
        }
        rec.submit()?.wait()?;
        let got: Vec<f64> = ctx.read(&y)?.into_iter().map(AsF64::as_f64).collect();
        let (w, bad) = check(&got, &want, got.len(), scan, out, tile);
        worst = worst.max(w);
        wrong += bad;
    }
    // The scans of a batch may run side by side (they share no array): check each of one
    // batch's results too, where reading them back takes little.
    if !args.serial && got.len() * args.batch <= BATCH_CHECK_ELEMENTS {
        let mut rec = ctx.recorder();
        let outs = (0..args.batch)
            .map(|_| rec.scan::<T, T::Acc>(x, scan))
            .collect::<wgpu_reduce::Result<Vec<_>>>()?;
        rec.submit()?.wait()?;
        for y in outs {
            let got: Vec<f64> = ctx.read(&y)?.into_iter().map(AsF64::as_f64).collect();
            let (w, bad) = check(&got, &want, got.len(), scan, out, tile);
            worst = worst.max(w);
            wrong += bad;
        }
    }
    // Warmed up with single scans, as the peer script warms torch: on the H200 the first single
    // scans of 2^28 elements right after a warm-up of batches often ran 3-4x slower (some 20 ms),
    // then at their usual speed (H200, 2026-11-30).
    support::warm_up(|| timed(ctx, x, scan, 1, false).map(drop))?;
    let (mut walls, mut gpus) = (Vec::new(), Vec::new());
    for _ in 0..args.repeat {
        let (wall, gpu) = timed(ctx, x, scan, 1, false)?;
        walls.push(wall);
        gpus.extend(gpu);
    }
    let (mut bwalls, mut bgpus) = (Vec::new(), Vec::new());
    for _ in 0..args.repeat {
        let (wall, gpu) = timed(ctx, x, scan, args.batch, args.serial)?;
        bwalls.push(wall / args.batch as u32);
        bgpus.extend(gpu.map(|g| g / args.batch as u32));
    }
    Ok(Row {
        worst,
        wrong,
        wall: median(&mut walls),
        gpu: (!gpus.is_empty()).then(|| median(&mut gpus)),
        batch_wall: median(&mut bwalls),
        batch_gpu: (!bgpus.is_empty()).then(|| median(&mut bgpus)),
        batch_algorithm,
    })
}

/// Elements of a batch's results read back and checked (all of them, where the batch has at
/// most this many).
const BATCH_CHECK_ELEMENTS: usize = 1 << 26;

/// The worst error (as a multiple of its tolerance) and the count of wrong elements among the
/// first `checked` of `got` (the first few wrong ones are printed); a length that differs from
/// the reference's counts too.
fn check(
    got: &[f64],
    want: &[scan_ref::ScanExpected],
    checked: usize,
    scan: &Scan,
    out: DType,
    tile: usize,
) -> (f64, usize) {
    let (mut worst, mut wrong) = (0f64, 0usize);
    for (i, (g, w)) in got.iter().zip(want).enumerate().take(checked) {
        let good = if w.value.is_nan() {
            g.is_nan()
        } else if w.value.is_infinite() || g.is_infinite() || g.is_nan() {
            *g == w.value
        } else {
            let tol = scan_tolerance(scan.op, out, w, tile);
            let err = (g - w.value).abs();
            worst = worst.max(err / tol.max(f64::MIN_POSITIVE));
            err <= tol
        };
        if !good && wrong < 5 {
            eprintln!(
                "element {i} (tile {}, +{}): got {g}, want {}, diff {}",
                i / tile,
                i % tile,
                w.value,
                g - w.value
            );
        }
        wrong += usize::from(!good);
    }
    wrong += want.len().abs_diff(got.len());
    (worst, wrong)
}

/// The rows of an array of this shape and their length (the last axis).
fn rows_len(shape: &[usize]) -> (usize, usize) {
    let len = shape.last().copied().unwrap_or(1);
    let n: usize = shape.iter().product();
    (n.checked_div(len).unwrap_or(0), len)
}

/// The algorithm `scan` runs with on an array of this shape.
fn algorithm_for(ctx: &Context, scan: &Scan, shape: &[usize]) -> ScanAlgorithm {
    match scan.algorithm {
        ScanAlgorithm::Auto => {
            let (rows, len) = rows_len(shape);
            ctx.scan_algorithm(rows, len)
        }
        a => a,
    }
}

/// The library's tiling: rows that start off a 16-byte boundary are tiled from the one before.
fn shape_row(
    ctx: &Context,
    args: &Args,
    shape: &[usize],
    rng: &mut StdRng,
) -> wgpu_reduce::Result<Row> {
    let n: usize = shape.iter().product();
    let floats: Vec<f64> = if args.dtype.is_float() {
        (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect()
    } else {
        Vec::new()
    };
    match args.dtype {
        DType::I32 => {
            let v: Vec<i32> = (0..n).map(|_| rng.gen()).collect();
            let x = ctx.upload_shaped(&v, shape)?;
            measure(ctx, args, &x, &Data::I32(v))
        }
        DType::U32 => {
            let v: Vec<u32> = (0..n).map(|_| rng.gen()).collect();
            let x = ctx.upload_shaped(&v, shape)?;
            measure(ctx, args, &x, &Data::U32(v))
        }
        DType::F16 => {
            let v: Vec<f16> = floats.iter().map(|&f| f16::from_f64(f)).collect();
            let x = ctx.upload_shaped(&v, shape)?;
            measure(
                ctx,
                args,
                &x,
                &Data::F(v.iter().map(|&h| h.into()).collect()),
            )
        }
        DType::BF16 => {
            let v: Vec<bf16> = floats.iter().map(|&f| bf16::from_f64(f)).collect();
            let x = ctx.upload_shaped(&v, shape)?;
            measure(
                ctx,
                args,
                &x,
                &Data::F(v.iter().map(|&h| h.into()).collect()),
            )
        }
        _ => {
            let v: Vec<f32> = floats.iter().map(|&f| f as f32).collect();
            let x = ctx.upload_shaped(&v, shape)?;
            measure(
                ctx,
                args,
                &x,
                &Data::F(v.iter().map(|&h| h.into()).collect()),
            )
        }
    }
}

fn main() -> ExitCode {
    env_logger::init();
    let Some(args) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let options = args.options.clone().with_tuning(args.tuning);
    let Some(ctx) = support::open_context(options) else {
        return ExitCode::from(2);
    };
    let seed = support::seed();
    let out = args.scan.op.output(args.dtype);
    println!(
        "scan: {} {} | {} -> {out} | algorithm: {:?} (tile {}, rows up to {} in one pass) | repeat: {} | batch: {}{} | seed: {seed}",
        if args.scan.exclusive { "exclusive" } else { "inclusive" },
        args.scan.op.name(),
        args.dtype,
        args.scan.algorithm,
        ctx.scan_tile(),
        ctx.scan_row_tile(),
        args.repeat,
        args.batch,
        if args.serial { " (serial)" } else { "" }
    );
    println!(
        "{:>16} {:>9} {:>6} {:>10} {:>10} {:>9} {:>11} {:>11} {:>10}  ok",
        "shape",
        "err/tol",
        "wrong",
        "wall us",
        "gpu us",
        "gpu GB/s",
        "batch wall",
        "batch gpu",
        "batch GB/s"
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let mut csv = support::open_csv(args.csv.as_ref());
    let mut any_wrong = false;
    for shape in &args.shapes {
        let shape_s = shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        let row = match shape_row(&ctx, &args, shape, &mut rng) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error at shape {shape_s}: {e}");
                return ExitCode::from(2);
            }
        };
        let n: usize = shape.iter().product();
        // Bytes read + written, as a copy's bandwidth is counted.
        let bytes = n * (args.dtype.size_bytes() + out.size_bytes());
        let gbps = |t: Duration| bytes as f64 / t.as_secs_f64() / 1e9;
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        any_wrong |= row.wrong > 0;
        println!(
            "{:>16} {:>9.3} {:>6} {:>10.1} {:>10} {:>9} {:>11.1} {:>11} {:>10.1}  {}",
            shape_s,
            row.worst,
            row.wrong,
            us(row.wall),
            row.gpu.map_or("-".into(), |g| format!("{:.1}", us(g))),
            row.gpu.map_or("-".into(), |g| format!("{:.1}", gbps(g))),
            us(row.batch_wall),
            row.batch_gpu
                .map_or("-".into(), |g| format!("{:.1}", us(g))),
            gbps(row.batch_gpu.unwrap_or(row.batch_wall)),
            if row.wrong == 0 { "yes" } else { "WRONG" }
        );
        if let Some(Ok(f)) = csv.as_mut() {
            let _ = writeln!(
                f,
                "wgpu-reduce,{}{},{},{},{:.3},{},{:.3},{},{},{},{:?}",
                if args.scan.exclusive { "excl_" } else { "" },
                args.scan.op.name(),
                args.dtype,
                n,
                us(row.wall),
                row.gpu.map_or(String::new(), |g| format!("{:.3}", us(g))),
                us(row.batch_wall),
                row.batch_gpu
                    .map_or(String::new(), |g| format!("{:.3}", us(g))),
                row.wrong == 0,
                shape_s,
                row.batch_algorithm
            );
        }
    }
    if any_wrong {
        eprintln!("some elements were WRONG");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
