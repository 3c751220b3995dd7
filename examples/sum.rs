//! The main job: sum large random arrays on the GPU, check each result against a CPU sum in
//! f64, and report wall time, GPU time and bandwidth.
//!
//!     cargo run --release --example sum
//!     cargo run --release --example sum -- --sizes 1024,4096 --dtype i32 --repeat 50
//!     cargo run --release --example sum -- --n 1000000,67108864 --op max --batch 20 --csv out.csv
//!
//! Options:
//!   --sizes A,B,..   square arrays of A², B², .. elements (default 2048,4096,8192)
//!   --n A,B,..       arrays of exactly A, B, .. elements (instead of --sizes)
//!   --dtype T        f32 (default), i32 or u32
//!   --op OP          sum (default), prod, min, max or mean
//!   --repeat R       timed runs per size, after one warm-up (default 30); medians are printed
//!   --batch K        also time K reductions recorded into one submission (default 10)
//!   --csv PATH       append one line per size to PATH
//!   --wg W           workgroup size (64, 128, 256); --max-groups G: first-pass workgroups;
//!   --no-subgroups   force the shared-memory workgroup step
//!
//! Exits with status 1 if any result is wrong, 2 on bad arguments or GPU errors.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu_reduce::{Context, DType, Element, GpuArray, ReduceOp};

struct Args {
    lengths: Vec<usize>,
    dtype: DType,
    op: ReduceOp,
    repeat: usize,
    batch: usize,
    csv: Option<String>,
    options: wgpu_reduce::ContextOptions,
}

fn parse_list(s: &str) -> Result<Vec<usize>, String> {
    s.split(',')
        .map(|v| {
            v.trim()
                .parse::<usize>()
                .map_err(|_| format!("not a number: {v:?}"))
        })
        .collect()
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        lengths: [2048usize, 4096, 8192].iter().map(|s| s * s).collect(),
        dtype: DType::F32,
        op: ReduceOp::Sum,
        repeat: 30,
        batch: 10,
        csv: None,
        options: wgpu_reduce::ContextOptions::default(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--sizes" => args.lengths = parse_list(&value()?)?.iter().map(|s| s * s).collect(),
            "--n" => args.lengths = parse_list(&value()?)?,
            "--dtype" => {
                let v = value()?;
                args.dtype = DType::parse(&v).ok_or(format!("unknown dtype {v:?}; use f32, i32 or u32"))?
            }
            "--op" => {
                let v = value()?;
                args.op = ReduceOp::parse(&v).ok_or(format!("unknown op {v:?}; use sum, prod, min, max or mean"))?
            }
            "--repeat" => args.repeat = parse_list(&value()?)?[0].max(1),
            "--batch" => args.batch = parse_list(&value()?)?[0].max(1),
            "--csv" => args.csv = Some(value()?),
            "--wg" => args.options.workgroup_size = parse_list(&value()?)?[0] as u32,
            "--max-groups" => args.options.max_workgroups = parse_list(&value()?)?[0] as u32,
            "--no-subgroups" => args.options.subgroups = wgpu_reduce::Subgroups::Off,
            "-h" | "--help" => {
                return Err("usage: sum [--sizes A,B] [--n A,B] [--dtype f32|i32|u32] [--op sum|prod|min|max|mean] [--repeat R] [--batch K] [--csv PATH] [--wg W] [--max-groups G] [--no-subgroups]".into())
            }
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    Ok(args)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// One measured size.
struct Row {
    n: usize,
    result: f64,
    reference: f64,
    error: f64,
    tolerance: f64,
    wall: Duration,
    gpu: Option<Duration>,
    batch_wall: Duration,
    batch_gpu: Option<Duration>,
}

/// Tolerance of an f32 result against the f64 reference: the library's stated worst-case bound
/// for sums (`Tuning::f32_sum_error_bound`), divided by n for means (plus one rounding per
/// element, for integer inputs converted to f32); exact for min and max.
fn f32_tolerance(op: ReduceOp, n: usize, sum_abs: f64, tuning: wgpu_reduce::Tuning) -> f64 {
    let u = f64::from(f32::EPSILON) / 2.0;
    let bound = tuning.f32_sum_error_bound(n, sum_abs);
    match op {
        ReduceOp::Mean => bound / n as f64 + u * sum_abs / n as f64,
        ReduceOp::Min | ReduceOp::Max => 0.0,
        _ => bound,
    }
}

trait Sample: Element {
    fn draw(rng: &mut StdRng, op: ReduceOp) -> Self;
    fn to_f64(self) -> f64;
    /// The reference: f64 for floats (and all means); wrapping 32-bit for integer sum/prod.
    fn reference(data: &[Self], op: ReduceOp) -> f64;
}

fn float_reference(values: impl Iterator<Item = f64> + Clone, n: usize, op: ReduceOp) -> f64 {
    match op {
        ReduceOp::Sum => values.sum(),
        ReduceOp::Prod => values.product(),
        ReduceOp::Min => values.fold(f64::INFINITY, f64::min),
        ReduceOp::Max => values.fold(f64::NEG_INFINITY, f64::max),
        _ => values.sum::<f64>() / n as f64,
    }
}

impl Sample for f32 {
    fn draw(rng: &mut StdRng, op: ReduceOp) -> f32 {
        if op == ReduceOp::Prod {
            rng.gen_range(0.9999f32..1.0001)
        } else {
            rng.gen_range(-1.0f32..1.0)
        }
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn reference(data: &[f32], op: ReduceOp) -> f64 {
        float_reference(data.iter().map(|&v| f64::from(v)), data.len(), op)
    }
}

macro_rules! int_sample {
    ($t:ty) => {
        impl Sample for $t {
            fn draw(rng: &mut StdRng, _op: ReduceOp) -> $t {
                rng.gen::<$t>() | 1
            }
            fn to_f64(self) -> f64 {
                f64::from(self)
            }
            fn reference(data: &[$t], op: ReduceOp) -> f64 {
                match op {
                    ReduceOp::Sum => {
                        f64::from(data.iter().fold(0 as $t, |a, &b| a.wrapping_add(b)))
                    }
                    ReduceOp::Prod => {
                        f64::from(data.iter().fold(1 as $t, |a, &b| a.wrapping_mul(b)))
                    }
                    _ => float_reference(data.iter().map(|&v| f64::from(v)), data.len(), op),
                }
            }
        }
    };
}
int_sample!(i32);
int_sample!(u32);

/// Records `k` reductions of `x`, reads the last, and returns (value, wall, gpu).
fn run_once<T: Sample>(
    ctx: &Context,
    x: &GpuArray<T>,
    op: ReduceOp,
    k: usize,
) -> wgpu_reduce::Result<(f64, Duration, Option<Duration>)> {
    let start = Instant::now();
    let mut rec = ctx.recorder();
    rec.enable_timestamps();
    let mut value = None;
    for _ in 0..k {
        value = Some(if op == ReduceOp::Mean {
            let m = rec.mean(x)?;
            Err(rec.read(&m)?)
        } else {
            let r = match op {
                ReduceOp::Sum => rec.sum(x)?,
                ReduceOp::Prod => rec.prod(x)?,
                ReduceOp::Min => rec.min(x)?,
                _ => rec.max(x)?,
            };
            Ok(rec.read(&r)?)
        });
    }
    let results = rec.submit()?.wait()?;
    let wall = start.elapsed();
    let v = match value.expect("k >= 1") {
        Ok(t) => results.scalar(&t)?.to_f64(),
        Err(t) => f64::from(results.scalar(&t)?),
    };
    Ok((v, wall, results.gpu_time()))
}

fn measure<T: Sample>(
    ctx: &Context,
    args: &Args,
    n: usize,
    rng: &mut StdRng,
) -> wgpu_reduce::Result<Row> {
    let data: Vec<T> = (0..n).map(|_| T::draw(rng, args.op)).collect();
    let reference = T::reference(&data, args.op);
    let sum_abs: f64 = data.iter().map(|&v| v.to_f64().abs()).sum();
    let tolerance = if T::DTYPE.is_float() || args.op == ReduceOp::Mean {
        let t = f32_tolerance(args.op, n, sum_abs, ctx.tuning());
        if args.op == ReduceOp::Prod {
            (n as f64) * f64::from(f32::EPSILON) * reference.abs()
        } else {
            t
        }
    } else {
        0.0
    };
    let x = ctx.upload(&data)?;
    drop(data);
    run_once(ctx, &x, args.op, 1)?; // warm-up: pipelines, pool
    let (mut walls, mut gpus) = (Vec::new(), Vec::new());
    let mut result = f64::NAN;
    for _ in 0..args.repeat {
        let (v, wall, gpu) = run_once(ctx, &x, args.op, 1)?;
        result = v;
        walls.push(wall);
        gpus.extend(gpu);
    }
    run_once(ctx, &x, args.op, args.batch)?;
    let (mut bwalls, mut bgpus) = (Vec::new(), Vec::new());
    for _ in 0..args.repeat {
        let (_, wall, gpu) = run_once(ctx, &x, args.op, args.batch)?;
        bwalls.push(wall / args.batch as u32);
        bgpus.extend(gpu.map(|g| g / args.batch as u32));
    }
    Ok(Row {
        n,
        result,
        reference,
        error: (result - reference).abs(),
        tolerance,
        wall: median(&mut walls),
        gpu: (!gpus.is_empty()).then(|| median(&mut gpus)),
        batch_wall: median(&mut bwalls),
        batch_gpu: (!bgpus.is_empty()).then(|| median(&mut bgpus)),
    })
}

fn gbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e9
}

fn main() -> ExitCode {
    env_logger::init();
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let ctx = match Context::with_options(args.options.clone()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let caps = ctx.capabilities();
    println!(
        "adapter: {} | backend: {:?} | driver: {} {} | subgroups: {} | timestamps: {} | tuning: {:?}",
        caps.adapter.name,
        caps.adapter.backend,
        caps.adapter.driver,
        caps.adapter.driver_info,
        caps.subgroups,
        caps.timestamps,
        ctx.tuning()
    );
    let seed: u64 = std::env::var("WGPU_REDUCE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().gen());
    println!(
        "op: {} | dtype: {} | repeat: {} | batch: {} | seed: {seed}",
        args.op.name(),
        args.dtype,
        args.repeat,
        args.batch
    );
    let mut rng = StdRng::seed_from_u64(seed);
    println!(
        "{:>11} {:>16} {:>10} {:>10} {:>10} {:>10} {:>9} {:>11} {:>9}  ok",
        "n",
        "result",
        "abs err",
        "tolerance",
        "wall us",
        "gpu us",
        "gpu GB/s",
        "batch us/op",
        "batch GB/s"
    );
    let mut csv = args.csv.as_ref().map(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
    });
    let mut wrong = false;
    for &n in &args.lengths {
        let row = match args.dtype {
            DType::I32 => measure::<i32>(&ctx, &args, n, &mut rng),
            DType::U32 => measure::<u32>(&ctx, &args, n, &mut rng),
            _ => measure::<f32>(&ctx, &args, n, &mut rng),
        };
        let row = match row {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error at n = {n}: {e}");
                return ExitCode::from(2);
            }
        };
        let bytes = n * args.dtype.size_bytes();
        let ok = row.error <= row.tolerance || (row.result.is_nan() && row.reference.is_nan());
        wrong |= !ok;
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let batch_t = row.batch_gpu.unwrap_or(row.batch_wall);
        println!(
            "{:>11} {:>16.6e} {:>10.3e} {:>10.3e} {:>10.1} {:>10} {:>9} {:>11.1} {:>10.1}  {}",
            row.n,
            row.result,
            row.error,
            row.tolerance,
            us(row.wall),
            row.gpu.map_or("-".into(), |g| format!("{:.1}", us(g))),
            row.gpu
                .map_or("-".into(), |g| format!("{:.1}", gbps(bytes, g))),
            us(row.batch_wall),
            gbps(bytes, batch_t),
            if ok { "yes" } else { "WRONG" }
        );
        if let Some(Ok(f)) = csv.as_mut() {
            let _ = writeln!(
                f,
                "wgpu-reduce,{},{},{},{:.3},{},{:.3},{},{}",
                args.op.name(),
                args.dtype,
                n,
                us(row.wall),
                row.gpu.map_or(String::new(), |g| format!("{:.3}", us(g))),
                us(row.batch_wall),
                row.batch_gpu
                    .map_or(String::new(), |g| format!("{:.3}", us(g))),
                ok
            );
        }
    }
    if wrong {
        eprintln!("some results were WRONG");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
