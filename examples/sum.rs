//! The main job: reduce large random arrays on the GPU, check every result against a CPU
//! reference in f64, and report wall time, GPU time and bandwidth.
//!
//!     cargo run --release --example sum
//!     cargo run --release --example sum -- --sizes 1024,4096 --dtype i32 --repeat 50
//!     cargo run --release --example sum -- --n 1000000,67108864 --op max --batch 20 --csv out.csv
//!     cargo run --release --example sum -- --shape 8192x8192,3x1048576 --axis 0 --dtype f16
//!     cargo run --release --example sum -- --n 16777216 --op argmax --dtype bf16
//!
//! Options:
//!   --sizes A,B,..   square arrays of A², B², .. elements (default 2048,4096,8192)
//!   --n A,B,..       1-D arrays of exactly A, B, .. elements (instead of --sizes)
//!   --shape S,..     arrays of shape S (dimensions joined by x, e.g. 8192x8192 or 4x5x6)
//!   --axis A,..      reduce along these axes (negative counts from the end; default: all)
//!   --keepdim        keep reduced axes as size-1 dimensions
//!   --dtype T        f32 (default), i32, u32, f16 or bf16
//!   --op OP          sum (default), prod, min, max, mean, var, std, argmin or argmax
//!   --out T          result type where there is a choice (f32 for f16/bf16 input; default: as
//!                    PyTorch picks: the input type, f32 for mean/var/std of 32-bit types)
//!   --correction C   var/std divisor n - C (default 1)
//!   --repeat R       timed runs per size, after one warm-up (default 30); medians are printed
//!   --batch K        also time K reductions recorded into one submission (default 10)
//!   --csv PATH       append one line per size to PATH
//!   --wg W           workgroup size (64, 128, 256); --max-groups G: first-pass workgroups;
//!   --no-subgroups   force the shared-memory workgroup step
//!
//! Exits with status 1 if any result is wrong, 2 on bad arguments or GPU errors.

#[path = "../tests/common/reference.rs"]
#[allow(dead_code)]
mod reference;
#[path = "support/mod.rs"]
mod support;

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use half::{bf16, f16};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reference::{reference, round_to, tolerance, Data};
use support::{median, AsF64};
use wgpu_reduce::{Axes, Context, DType, Element, GpuArray, ReduceOp, Reduction};

struct Args {
    shapes: Vec<Vec<usize>>,
    dtype: DType,
    out: Option<DType>,
    red: Reduction,
    repeat: usize,
    batch: usize,
    csv: Option<String>,
    options: wgpu_reduce::ContextOptions,
}

const USAGE: &str =
    "usage: sum [--sizes A,B | --n A,B | --shape AxB,..] [--axis A,..] [--keepdim] \
[--dtype f32|i32|u32|f16|bf16] [--op sum|prod|min|max|mean|var|std|argmin|argmax] [--out T] \
[--correction C] [--repeat R] [--batch K] [--csv PATH] [--wg W] [--max-groups G] [--no-subgroups]";

fn parse_list<T: std::str::FromStr>(s: &str) -> Result<Vec<T>, String> {
    s.split(',')
        .map(|v| {
            v.trim()
                .parse::<T>()
                .map_err(|_| format!("not a number: {v:?}"))
        })
        .collect()
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        shapes: [2048usize, 4096, 8192]
            .iter()
            .map(|s| vec![s * s])
            .collect(),
        dtype: DType::F32,
        out: None,
        red: Reduction::new(ReduceOp::Sum),
        repeat: 30,
        batch: 10,
        csv: None,
        options: wgpu_reduce::ContextOptions::default(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--sizes" => {
                args.shapes = parse_list::<usize>(&value()?)?
                    .iter()
                    .map(|s| vec![s * s])
                    .collect()
            }
            "--n" => {
                args.shapes = parse_list::<usize>(&value()?)?
                    .into_iter()
                    .map(|n| vec![n])
                    .collect()
            }
            "--shape" => {
                args.shapes = value()?
                    .split(',')
                    .map(|s| parse_list::<usize>(&s.replace('x', ",")))
                    .collect::<Result<_, _>>()?
            }
            "--axis" => args.red.axes = Axes::List(parse_list::<i32>(&value()?)?),
            "--keepdim" => args.red.keepdim = true,
            "--dtype" | "--out" => {
                let v = value()?;
                let d = DType::parse(&v).ok_or(format!(
                    "unknown type {v:?}; use f32, i32, u32, f16 or bf16"
                ))?;
                if flag == "--dtype" {
                    args.dtype = d
                } else {
                    args.out = Some(d)
                }
            }
            "--op" => {
                let v = value()?;
                args.red.op = ReduceOp::parse(&v).ok_or(format!(
                    "unknown op {v:?}; use sum, prod, min, max, mean, var, std, argmin or argmax"
                ))?
            }
            "--correction" => args.red.correction = parse_list::<u32>(&value()?)?[0],
            "--repeat" => args.repeat = parse_list::<usize>(&value()?)?[0].max(1),
            "--batch" => args.batch = parse_list::<usize>(&value()?)?[0].max(1),
            "--csv" => args.csv = Some(value()?),
            "--wg" => args.options.workgroup_size = parse_list::<u32>(&value()?)?[0],
            "--max-groups" => args.options.max_workgroups = parse_list::<u32>(&value()?)?[0],
            "--no-subgroups" => args.options.subgroups = wgpu_reduce::Subgroups::Off,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown option {other:?}\n{USAGE}")),
        }
    }
    Ok(args)
}

/// Records `k` reductions of `x`, reads the last if `read`, and returns (values, wall, gpu).
///
/// Timed runs of reductions along axes do not read their (possibly large) result back: the
/// copy to the host would dominate the wall time and leave the GPU idle, at low clocks, between
/// runs. Whole-array runs read their one value, so their wall time is host to host.
fn run_once<T: Element, O: AsF64>(
    ctx: &Context,
    x: &GpuArray<T>,
    red: &Reduction,
    k: usize,
    read: bool,
) -> wgpu_reduce::Result<(Vec<f64>, Duration, Option<Duration>)> {
    let start = Instant::now();
    let mut rec = ctx.recorder();
    rec.enable_timestamps();
    // Only the last result is read back (reading large results along axes would time the
    // copy to the host, not the reduction); the others stay alive on the GPU until the wait.
    let mut keep = Vec::with_capacity(k);
    for _ in 0..k {
        keep.push(rec.reduce::<T, O>(x, red)?);
    }
    let token = if read {
        Some(rec.read(keep.last().expect("k >= 1"))?)
    } else {
        None
    };
    let results = rec.submit()?.wait()?;
    let wall = start.elapsed();
    let values = match token {
        Some(t) => results.get(&t)?,
        None => Vec::new(),
    };
    Ok((
        values.into_iter().map(AsF64::as_f64).collect(),
        wall,
        results.gpu_time(),
    ))
}

/// One measured shape.
struct Row {
    first: f64,
    worst: f64,
    ok: bool,
    wall: Duration,
    gpu: Option<Duration>,
    batch_wall: Duration,
    batch_gpu: Option<Duration>,
}

fn measure<T: Element, O: AsF64>(
    ctx: &Context,
    args: &Args,
    x: &GpuArray<T>,
    data: &Data,
) -> wgpu_reduce::Result<Row> {
    let red = &args.red;
    let want = reference(data, x.shape(), red);
    let (values, _, _) = run_once::<T, O>(ctx, x, red, 1, true)?; // warm-up: pipelines, pool
    let read = want.len() == 1;
    let (mut worst, mut ok) = (0f64, true);
    for (g, w) in values.iter().zip(&want) {
        let wr = round_to(O::DTYPE, w.value);
        let good = if w.value.is_nan() || wr.is_infinite() {
            (g.is_nan() && w.value.is_nan()) || *g == wr
        } else {
            let err = (g - w.value).abs();
            worst =
                worst.max(err / tolerance(red.op, T::DTYPE, O::DTYPE, w).max(f64::MIN_POSITIVE));
            err <= tolerance(red.op, T::DTYPE, O::DTYPE, w)
        };
        ok &= good;
    }
    ok &= values.len() == want.len();
    let (mut walls, mut gpus) = (Vec::new(), Vec::new());
    for _ in 0..args.repeat {
        let (_, wall, gpu) = run_once::<T, O>(ctx, x, red, 1, read)?;
        walls.push(wall);
        gpus.extend(gpu);
    }
    let (mut bwalls, mut bgpus) = (Vec::new(), Vec::new());
    for _ in 0..args.repeat {
        let (_, wall, gpu) = run_once::<T, O>(ctx, x, red, args.batch, read)?;
        bwalls.push(wall / args.batch as u32);
        bgpus.extend(gpu.map(|g| g / args.batch as u32));
    }
    Ok(Row {
        first: values.first().copied().unwrap_or(f64::NAN),
        worst,
        ok,
        wall: median(&mut walls),
        gpu: (!gpus.is_empty()).then(|| median(&mut gpus)),
        batch_wall: median(&mut bwalls),
        batch_gpu: (!bgpus.is_empty()).then(|| median(&mut bgpus)),
    })
}

fn draw(rng: &mut StdRng, op: ReduceOp) -> f64 {
    if op == ReduceOp::Prod {
        rng.gen_range(0.9999..1.0001)
    } else {
        rng.gen_range(-1.0..1.0)
    }
}

/// Uploads random data of the chosen type and measures it with the chosen result type.
fn shape_row(
    ctx: &Context,
    args: &Args,
    shape: &[usize],
    rng: &mut StdRng,
) -> wgpu_reduce::Result<Row> {
    let n: usize = shape.iter().product();
    let op = args.red.op;
    let out = args.out.unwrap_or(op.default_output(args.dtype));
    // The result type is chosen at run time; the library checks it is allowed for the op.
    macro_rules! by_out {
        ($t:ty, $x:expr, $data:expr) => {
            match out {
                DType::F32 => measure::<$t, f32>(ctx, args, &$x, &$data),
                DType::U32 => measure::<$t, u32>(ctx, args, &$x, &$data),
                DType::I32 => measure::<$t, i32>(ctx, args, &$x, &$data),
                DType::F16 => measure::<$t, f16>(ctx, args, &$x, &$data),
                _ => measure::<$t, bf16>(ctx, args, &$x, &$data),
            }
        };
    }
    macro_rules! floats {
        ($t:ty, $conv:expr) => {{
            let v: Vec<$t> = (0..n).map(|_| $conv(draw(rng, op))).collect();
            let data = Data::F(v.iter().map(|&x| x.as_f64()).collect());
            let x = ctx.upload_shaped(&v, shape)?;
            drop(v);
            by_out!($t, x, data)
        }};
    }
    macro_rules! ints {
        ($t:ty, $wrap:expr) => {{
            let v: Vec<$t> = (0..n).map(|_| rng.gen::<$t>() | 1).collect();
            let data = $wrap(v.clone());
            let x = ctx.upload_shaped(&v, shape)?;
            by_out!($t, x, data)
        }};
    }
    match args.dtype {
        DType::F16 => floats!(f16, f16::from_f64),
        DType::BF16 => floats!(bf16, bf16::from_f64),
        DType::I32 => ints!(i32, Data::I32),
        DType::U32 => ints!(u32, Data::U32),
        _ => floats!(f32, |v: f64| v as f32),
    }
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
    support::print_adapter(&ctx);
    let seed = support::seed();
    let out = args.out.unwrap_or(args.red.op.default_output(args.dtype));
    println!(
        "op: {} | dtype: {} -> {out} | axes: {:?} | keepdim: {} | repeat: {} | batch: {} | seed: {seed}",
        args.red.op.name(),
        args.dtype,
        args.red.axes,
        args.red.keepdim,
        args.repeat,
        args.batch
    );
    let mut rng = StdRng::seed_from_u64(seed);
    println!(
        "{:>20} {:>14} {:>9} {:>10} {:>10} {:>9} {:>11} {:>10}  ok",
        "shape",
        "first value",
        "err/tol",
        "wall us",
        "gpu us",
        "gpu GB/s",
        "batch us/op",
        "batch GB/s"
    );
    let mut csv = support::open_csv(args.csv.as_ref());
    let mut wrong = false;
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
        let bytes = n * args.dtype.size_bytes();
        wrong |= !row.ok;
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let batch_t = row.batch_gpu.unwrap_or(row.batch_wall);
        println!(
            "{:>20} {:>14.6e} {:>9.3} {:>10.1} {:>10} {:>9} {:>11.1} {:>10.1}  {}",
            shape_s,
            row.first,
            row.worst,
            us(row.wall),
            row.gpu.map_or("-".into(), |g| format!("{:.1}", us(g))),
            row.gpu
                .map_or("-".into(), |g| format!("{:.1}", gbps(bytes, g))),
            us(row.batch_wall),
            gbps(bytes, batch_t),
            if row.ok { "yes" } else { "WRONG" }
        );
        log::info!("after shape {shape_s}: {:?}", ctx.pool_stats());
        if let Some(Ok(f)) = csv.as_mut() {
            let axes = match &args.red.axes {
                Axes::All => "all".to_string(),
                Axes::List(l) => l
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(";"),
            };
            let _ = writeln!(
                f,
                "wgpu-reduce,{},{},{},{:.3},{},{:.3},{},{},{},{}",
                args.red.op.name(),
                args.dtype,
                n,
                us(row.wall),
                row.gpu.map_or(String::new(), |g| format!("{:.3}", us(g))),
                us(row.batch_wall),
                row.batch_gpu
                    .map_or(String::new(), |g| format!("{:.3}", us(g))),
                row.ok,
                shape_s,
                axes
            );
        }
    }
    if wrong {
        eprintln!("some results were WRONG");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
