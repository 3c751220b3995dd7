//! The main job: reduce large random arrays on the GPU, check every result against the f64 CPU
//! reference at the end of this file, and report the time of one call (host clock), the GPU
//! time of its passes (timestamps) and the time per reduction of a batch, each in its own
//! column. The file stands alone: copy it into a project that depends on wgpu-reduce, lexopt
//! and rand. (Every other reduction — NaN forms, norms, logsumexp, dot, ... — is measured and
//! checked by the `speed` harness of the repository's `bench/`.)
//!
//!     cargo run --release --example sum
//!     cargo run --release --example sum -- --sizes 1024,4096 --dtype i32 --repeat 50
//!     cargo run --release --example sum -- --n 1000000,67108864 --op max --batch 20 --csv out.csv
//!     cargo run --release --example sum -- --shape 8192x8192,3x1048576 --axis 0 --dtype f16
//!
//! Options:
//!   --sizes A,B,..   square arrays of A², B², .. elements (default 2048,4096,8192 on a GPU,
//!                    1024,2048,4096 on a CPU adapter such as lavapipe)
//!   --n A,B,..       1-D arrays of exactly A, B, .. elements (instead of --sizes)
//!   --shape S,..     arrays of shape S (dimensions joined by x, e.g. 8192x8192 or 4x5x6)
//!   --axis A,..      reduce along these axes (negative counts from the end; default: all)
//!   --keepdim        keep reduced axes as size-1 dimensions
//!   --dtype T        f32 (default), i32, u32, f16 or bf16
//!   --op OP          sum (default), prod, min, max, mean, var, std, argmin or argmax
//!   --correction C   var/std divide by n - C (default 1)
//!   --repeat R       timed runs of each figure, after a warm-up; medians are printed
//!                    (default 30; 5 on a CPU adapter)
//!   --batch K        reductions recorded into one submission for the batch columns (default 10)
//!   --csv PATH       append one line per array to PATH
//!   --no-subgroups   force the shared-memory workgroup step
//!   -v               also print the kernel settings (Tuning) the context resolved
//!
//! Columns: `wall us` one call host to host (record, submit, wait, values back: the host's
//! clock) and the GB/s it means; `gpu us` the GPU time of that call's passes (timestamps, where
//! the device has them) and its GB/s; `batch wall` and `batch gpu` the wall and GPU time of K
//! reductions in one submission, per reduction, and `batch GB/s` from the batch's GPU time. GB/s
//! counts the bytes read. Exits with status 1 if any result is wrong, 2 on bad arguments or GPU
//! errors.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu_reduce::half::{bf16, f16};
use wgpu_reduce::{
    Axes, Context, ContextOptions, DType, Element, GpuArray, ReduceOp, Reduction, Subgroups,
};

const USAGE: &str = "usage: sum [--sizes A,B | --n A,B | --shape S,..] [--axis A,..] [--keepdim] \
                     [--dtype T] [--op OP] [--correction C] [--repeat R] [--batch K] [--csv PATH] \
                     [--no-subgroups] [-v]";

struct Args {
    shapes: Option<Vec<Vec<usize>>>,
    red: Reduction,
    dtype: DType,
    repeat: Option<usize>,
    batch: usize,
    csv: Option<String>,
    subgroups: Subgroups,
    verbose: bool,
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let options = ContextOptions::default().with_subgroups(args.subgroups);
    let ctx = match Context::with_options(options) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let caps = ctx.capabilities();
    let subgroups = if caps.subgroups {
        format!(
            "subgroups {}..{}",
            caps.subgroup_min_size, caps.subgroup_max_size
        )
    } else {
        "no subgroups".to_string()
    };
    println!(
        "adapter: {} ({:?}, driver {} {}; {subgroups}; timestamps {})",
        caps.adapter.name,
        caps.adapter.backend,
        caps.adapter.driver,
        caps.adapter.driver_info,
        if caps.timestamps { "yes" } else { "no" }
    );
    if args.verbose {
        println!("tuning: {:?}", ctx.tuning());
    }
    let cpu = caps.adapter.device_type == wgpu_reduce::wgpu::DeviceType::Cpu;
    let sides: &[usize] = if cpu {
        &[1024, 2048, 4096]
    } else {
        &[2048, 4096, 8192]
    };
    let shapes = args
        .shapes
        .clone()
        .unwrap_or_else(|| sides.iter().map(|s| vec![s * s]).collect());
    let repeat = args.repeat.unwrap_or(if cpu { 5 } else { 30 });
    // Every shape is checked against the reduction and the device before any data is made.
    for shape in &shapes {
        if let Some(why) = unrunnable(&ctx, &args, shape) {
            eprintln!("error: shape {shape:?}: {why}");
            return ExitCode::from(2);
        }
    }
    let seed = rand::random::<u64>() >> 11;
    let out = args.red.op.default_output(args.dtype);
    println!(
        "op: {} | {} -> {out} | axes: {:?} | keepdim: {} | repeat: {repeat} | batch: {} | seed: {seed}",
        args.red.op.name(),
        args.dtype,
        args.red.axes,
        args.red.keepdim,
        args.batch
    );
    println!(
        "{:>18} {:>13} {:>8} | {:>9} {:>8} | {:>9} {:>8} | {:>10} {:>10} {:>10} | ok",
        "shape",
        "first value",
        "err/tol",
        "wall us",
        "GB/s",
        "gpu us",
        "GB/s",
        "batch wall",
        "batch gpu",
        "batch GB/s"
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let mut wrong = false;
    for shape in &shapes {
        let row = match args.dtype {
            DType::F32 => run::<f32>(&ctx, &args, shape, repeat, &mut rng),
            DType::I32 => run::<i32>(&ctx, &args, shape, repeat, &mut rng),
            DType::U32 => run::<u32>(&ctx, &args, shape, repeat, &mut rng),
            DType::F16 => run::<f16>(&ctx, &args, shape, repeat, &mut rng),
            DType::BF16 => run::<bf16>(&ctx, &args, shape, repeat, &mut rng),
            other => unreachable!("{other} is not an element type of this example"),
        };
        let row = match row {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error at shape {shape:?}: {e}");
                return ExitCode::from(2);
            }
        };
        wrong |= !row.ok;
        print_row(&row, &args);
    }
    if wrong {
        eprintln!("some results were WRONG");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// One array's figures: times are medians; `None` where the device has no timestamps.
struct Row {
    shape: String,
    bytes: usize,
    first: f64,
    /// The largest |error| / tolerance over the result's elements.
    worst: f64,
    ok: bool,
    wall: Duration,
    gpu: Option<Duration>,
    batch_wall: Duration,
    batch_gpu: Option<Duration>,
}

fn print_row(row: &Row, args: &Args) {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let gbs = |d: Duration| row.bytes as f64 / d.as_secs_f64() / 1e9;
    let opt = |d: Option<Duration>, f: &dyn Fn(Duration) -> f64| {
        d.map_or("-".to_string(), |d| format!("{:.1}", f(d)))
    };
    println!(
        "{:>18} {:>13.6e} {:>8.3} | {:>9.1} {:>8.1} | {:>9} {:>8} | {:>10.1} {:>10} {:>10} | {}",
        row.shape,
        row.first,
        row.worst,
        us(row.wall),
        gbs(row.wall),
        opt(row.gpu, &us),
        opt(row.gpu, &gbs),
        us(row.batch_wall),
        opt(row.batch_gpu, &us),
        opt(row.batch_gpu, &gbs),
        if row.ok { "yes" } else { "WRONG" }
    );
    if let Some(path) = &args.csv {
        let line = format!(
            "wgpu-reduce,{},{},{},{},{:.3},{},{:.3},{},{}",
            args.red.op.name(),
            args.dtype,
            row.shape,
            row.bytes / args.dtype.size_bytes(),
            us(row.wall),
            row.gpu.map_or(String::new(), |g| format!("{:.3}", us(g))),
            us(row.batch_wall),
            row.batch_gpu
                .map_or(String::new(), |g| format!("{:.3}", us(g))),
            row.ok
        );
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path);
        if let Err(e) = file.and_then(|mut f| writeln!(f, "{line}")) {
            eprintln!("could not write {path}: {e}");
        }
    }
}

/// Why `shape` cannot run: the reduction's axes, or the device's largest buffer.
fn unrunnable(ctx: &Context, args: &Args, shape: &[usize]) -> Option<String> {
    if let Err(e) = args.red.output_shape(shape) {
        return Some(e.to_string());
    }
    let bytes = shape
        .iter()
        .try_fold(args.dtype.size_bytes(), |a, &d| a.checked_mul(d));
    let max = ctx.capabilities().limits.max_buffer_size;
    match bytes {
        Some(b) if (b as u64) <= max => None,
        _ => Some(format!(
            "it does not fit one buffer of this device (max_buffer_size {max} bytes)"
        )),
    }
}

/// The element types as the reference sees them.
trait Value: Element {
    fn draw(rng: &mut StdRng, op: ReduceOp) -> Self;
    fn to_f64(self) -> f64;
}

impl Value for f32 {
    fn draw(rng: &mut StdRng, op: ReduceOp) -> f32 {
        // Products of values near 1 stay finite.
        if op == ReduceOp::Prod {
            rng.gen_range(0.999..1.001)
        } else {
            rng.gen_range(-1.0..1.0)
        }
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Value for f16 {
    fn draw(rng: &mut StdRng, op: ReduceOp) -> f16 {
        f16::from_f32(f32::draw(rng, op))
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Value for bf16 {
    fn draw(rng: &mut StdRng, op: ReduceOp) -> bf16 {
        bf16::from_f32(f32::draw(rng, op))
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Value for i32 {
    fn draw(rng: &mut StdRng, _: ReduceOp) -> i32 {
        rng.gen()
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Value for u32 {
    fn draw(rng: &mut StdRng, _: ReduceOp) -> u32 {
        rng.gen()
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

/// Uploads random data of `shape`, checks the result against the reference and times it.
fn run<T: Value>(
    ctx: &Context,
    args: &Args,
    shape: &[usize],
    repeat: usize,
    rng: &mut StdRng,
) -> wgpu_reduce::Result<Row> {
    let n: usize = shape.iter().product();
    let data: Vec<T> = (0..n).map(|_| T::draw(rng, args.red.op)).collect();
    let x = ctx.upload_shaped(&data, shape)?;
    let got = match args.red.op.default_output(T::DTYPE) {
        DType::F32 => time::<T, f32>(ctx, &x, args, repeat)?,
        DType::U32 => time::<T, u32>(ctx, &x, args, repeat)?,
        DType::I32 => time::<T, i32>(ctx, &x, args, repeat)?,
        DType::F16 => time::<T, f16>(ctx, &x, args, repeat)?,
        DType::BF16 => time::<T, bf16>(ctx, &x, args, repeat)?,
        other => unreachable!("{other} is not a result type of the nine"),
    };
    let (values, mut row) = got;
    let want = reference(&data, shape, &args.red);
    let out = args.red.op.default_output(T::DTYPE);
    row.worst = 0.0;
    row.ok = values.len() == want.len();
    for (g, w) in values.iter().zip(&want) {
        if w.value.is_nan() || w.value.is_infinite() {
            // var/std of no more elements than the correction: NaN or +inf, as on the GPU.
            row.ok &= g.is_nan() == w.value.is_nan() && (g.is_nan() || *g == w.value);
            continue;
        }
        let tol = tolerance(args.red.op, T::DTYPE, out, w);
        let err = (g - w.value).abs();
        row.ok &= err <= tol;
        row.worst = row.worst.max(if tol > 0.0 { err / tol } else { err });
    }
    row.shape = shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x");
    row.bytes = n * T::DTYPE.size_bytes();
    row.first = values.first().copied().unwrap_or(f64::NAN);
    Ok(row)
}

/// Times one call (host clock; again with timestamps for the GPU time) and batches of
/// `args.batch` reductions, after warming the GPU up; returns the values of the first call.
/// Every timed call must return the same values as the first (the library is deterministic).
fn time<T: Value, O: Value>(
    ctx: &Context,
    x: &GpuArray<T>,
    args: &Args,
    repeat: usize,
) -> wgpu_reduce::Result<(Vec<f64>, Row)> {
    let red = &args.red;
    let widen = |v: Vec<O>| v.into_iter().map(Value::to_f64).collect::<Vec<f64>>();
    // k reductions in one submission, the last one read; (values, wall, GPU time).
    let once = |k: usize, timestamps: bool| -> wgpu_reduce::Result<(Vec<f64>, Duration, _)> {
        let start = Instant::now();
        let mut rec = ctx.recorder();
        if timestamps {
            rec.enable_timestamps();
        }
        let mut last = None;
        for _ in 0..k {
            last = Some(rec.reduce::<T, O>(x, red)?);
        }
        let token = rec.read(&last.expect("k >= 1"))?;
        let results = rec.submit()?.wait()?;
        let values = widen(results.get(&token)?);
        Ok((values, start.elapsed(), results.gpu_time()))
    };
    let first = widen(ctx.run(|rec| rec.reduce::<T, O>(x, red))?);
    // GPU clocks drop while the GPU idles: run for a while before timing.
    let warm = Instant::now();
    while warm.elapsed() < Duration::from_millis(300) {
        once(args.batch, false)?;
    }
    let same = |v: &Vec<f64>| {
        v.iter()
            .zip(&first)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    };
    let median = |mut v: Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (mut walls, mut gpus, mut batch_walls, mut batch_gpus) = (vec![], vec![], vec![], vec![]);
    let mut deterministic = true;
    for _ in 0..repeat {
        let (v, wall, _) = once(1, false)?;
        deterministic &= same(&v);
        walls.push(wall);
        let (_, _, gpu) = once(1, true)?;
        gpus.extend(gpu);
        let (v, wall, gpu) = once(args.batch, true)?;
        deterministic &= same(&v);
        batch_walls.push(wall / args.batch as u32);
        batch_gpus.extend(gpu.map(|g| g / args.batch as u32));
    }
    let row = Row {
        shape: String::new(),
        bytes: 0,
        first: 0.0,
        worst: 0.0,
        ok: deterministic,
        wall: median(walls),
        gpu: (!gpus.is_empty()).then(|| median(gpus)),
        batch_wall: median(batch_walls),
        batch_gpu: (!batch_gpus.is_empty()).then(|| median(batch_gpus)),
    };
    if !deterministic {
        eprintln!("a timed call returned other values than the first");
    }
    Ok((first, row))
}

/// One expected value and what its tolerance needs.
struct Expected {
    value: f64,
    /// Σ|x| (sum, mean) or Σ(x - mean)² (var, std) of the reduced elements.
    mag: f64,
    /// Elements reduced, and their mean.
    r: usize,
    mean: f64,
}

/// The f64 reference of `red` over `data` of `shape`: floats exactly in f64, integer sums and
/// products wrapping in 32 bits as the GPU's; indices along the one reduced axis (flat over the
/// whole array), ties to the lowest.
fn reference<T: Value>(data: &[T], shape: &[usize], red: &Reduction) -> Vec<Expected> {
    let nd = shape.len();
    let mut reduced = vec![matches!(red.axes, Axes::All); nd];
    if let Axes::List(list) = &red.axes {
        for &a in list {
            reduced[if a < 0 {
                (a + nd as i32) as usize
            } else {
                a as usize
            }] = true;
        }
    }
    // Group the elements by output index, each group in increasing order along the reduced axes.
    let out_len: usize = (0..nd).filter(|&d| !reduced[d]).map(|d| shape[d]).product();
    let mut groups = vec![Vec::new(); out_len];
    let mut idx = vec![0usize; nd];
    for v in data {
        let o = (0..nd)
            .filter(|&d| !reduced[d])
            .fold(0, |o, d| o * shape[d] + idx[d]);
        groups[o].push(*v);
        for d in (0..nd).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    let int = !T::DTYPE.is_float();
    groups
        .iter()
        .map(|g| {
            let xs: Vec<f64> = g.iter().map(|v| v.to_f64()).collect();
            let r = xs.len();
            let mean = xs.iter().sum::<f64>() / r as f64;
            let abs = xs.iter().map(|v| v.abs()).sum::<f64>();
            let m2 = xs.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
            let wrap = |v: i64| match T::DTYPE {
                DType::U32 => f64::from(v as u32),
                _ => f64::from(v as i32),
            };
            let pick = |better: fn(f64, f64) -> bool| {
                let mut at = 0;
                for (i, &v) in xs.iter().enumerate() {
                    if better(v, xs[at]) {
                        at = i;
                    }
                }
                at
            };
            let var = m2 / (r as f64 - f64::from(red.correction));
            let value = match red.op {
                ReduceOp::Sum if int => wrap(
                    g.iter()
                        .fold(0i64, |a, v| a.wrapping_add(v.to_f64() as i64)),
                ),
                ReduceOp::Prod if int => wrap(g.iter().fold(1i64, |a, v| {
                    (a.wrapping_mul(v.to_f64() as i64)) as i32 as i64
                })),
                ReduceOp::Sum => xs.iter().sum(),
                ReduceOp::Prod => xs.iter().product(),
                ReduceOp::Min => xs.iter().copied().fold(f64::INFINITY, f64::min),
                ReduceOp::Max => xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ReduceOp::Mean => mean,
                ReduceOp::Var => var,
                ReduceOp::Std => var.sqrt(),
                ReduceOp::Argmin => pick(|v, best| v < best) as f64,
                ReduceOp::Argmax => pick(|v, best| v > best) as f64,
                other => unreachable!("{other:?} is not one of the nine"),
            };
            let mag = if matches!(red.op, ReduceOp::Var | ReduceOp::Std) {
                m2
            } else {
                abs
            };
            Expected {
                value,
                mag,
                r,
                mean,
            }
        })
        .collect()
}

/// How far a result may be from the reference (u = 2^-24, r elements reduced, depth
/// log2 r + 4): sums (r + depth)·u·Σ|x| (the library's f32 bound, `Tuning::f32_sum_error_bound`,
/// taken with every element on one lane), means that over r plus one rounding, products
/// (r + 1)·u·|prod|, var and std (√r + depth + 8)·16·u·κ relative, κ = 1 + |mean|/std the
/// data's condition; picks, indices and integers exactly. A 16-bit result adds half its ulp,
/// and every float result f32's smallest normal (flushed or underflowed results).
fn tolerance(op: ReduceOp, input: DType, output: DType, e: &Expected) -> f64 {
    let u = f64::from(f32::EPSILON) / 2.0;
    let half_ulp = match output {
        DType::F16 => e.value.abs() * 2f64.powi(-11) + 2f64.powi(-25),
        DType::BF16 => e.value.abs() * 2f64.powi(-8),
        _ => 0.0,
    };
    let exact = matches!(
        op,
        ReduceOp::Min | ReduceOp::Max | ReduceOp::Argmin | ReduceOp::Argmax
    ) || (!input.is_float() && matches!(op, ReduceOp::Sum | ReduceOp::Prod));
    if exact {
        return half_ulp;
    }
    let r = e.r.max(1) as f64;
    let depth = r.log2().ceil() + 4.0;
    let base = match op {
        ReduceOp::Sum => (r + depth) * u * e.mag,
        ReduceOp::Mean => (r + depth) * u * e.mag / r + u * e.value.abs(),
        ReduceOp::Prod => (r + 1.0) * u * e.value.abs(),
        _ => {
            let std = (e.mag / r).sqrt().max(f64::MIN_POSITIVE);
            let kappa = 1.0 + e.mean.abs() / std;
            (r.sqrt() + depth + 8.0) * 16.0 * u * kappa * e.value.abs()
        }
    };
    base * (1.0 + 1e-6) + half_ulp + f64::from(f32::MIN_POSITIVE).sqrt()
}

fn parse_args() -> Result<Args, String> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_env();
    let mut a = Args {
        shapes: None,
        red: Reduction::new(ReduceOp::Sum),
        dtype: DType::F32,
        repeat: None,
        batch: 10,
        csv: None,
        subgroups: Subgroups::Auto,
        verbose: false,
    };
    let (mut axes, mut keepdim, mut correction) = (None, false, 1u32);
    while let Some(arg) = p.next().map_err(|e| format!("invalid option: {e}"))? {
        match arg {
            Long("sizes") => {
                let sides: Vec<usize> = list(&mut p, "--sizes", "sides of at least 1")?;
                a.shapes = Some(sides.iter().map(|s| vec![s * s]).collect());
            }
            Long("n") => {
                let n: Vec<usize> = list(&mut p, "--n", "sizes of at least 1")?;
                a.shapes = Some(n.iter().map(|&n| vec![n]).collect());
            }
            Long("shape") => {
                let text = value(&mut p, "--shape")?;
                let shapes = text
                    .split(',')
                    .map(|s| parse_list(&s.replace('x', ","), "--shape", "dimensions joined by x"))
                    .collect::<Result<_, _>>()?;
                a.shapes = Some(shapes);
            }
            Long("axis") => axes = Some(list::<i32>(&mut p, "--axis", "axes, e.g. 0 or -1,0")?),
            Long("keepdim") => keepdim = true,
            Long("dtype") => a.dtype = one(&mut p, "--dtype", "f32, i32, u32, f16 or bf16")?,
            Long("op") => {
                let op: ReduceOp = one(&mut p, "--op", "one of the nine basic reductions")?;
                if !ReduceOp::BASIC.contains(&op) {
                    return Err(format!(
                        "invalid value {:?} for --op: this example runs sum, prod, min, max, \
                         mean, var, std, argmin and argmax (the speed harness runs the rest)",
                        op.name()
                    ));
                }
                a.red.op = op;
            }
            Long("correction") => correction = one(&mut p, "--correction", "a whole number")?,
            Long("repeat") => a.repeat = Some(one(&mut p, "--repeat", "a whole number")?),
            Long("batch") => a.batch = one(&mut p, "--batch", "a whole number")?,
            Long("csv") => a.csv = Some(value(&mut p, "--csv")?),
            Long("no-subgroups") => a.subgroups = Subgroups::Off,
            Short('v') => a.verbose = true,
            Short('h') | Long("help") => {
                let doc: Vec<&str> = include_str!("sum.rs")
                    .lines()
                    .skip_while(|l| !l.starts_with("//! Options:"))
                    .take_while(|l| l.starts_with("//!"))
                    .map(|l| l.trim_start_matches("//!").strip_prefix(' ').unwrap_or(""))
                    .collect();
                println!("{USAGE}\n\n{}", doc.join("\n"));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    if a.repeat == Some(0) || a.batch == 0 {
        return Err(
            "invalid value 0: --repeat and --batch take whole numbers of at least 1".into(),
        );
    }
    if a.shapes.iter().flatten().any(|s| s.contains(&0)) {
        return Err("invalid value 0: sizes and dimensions are at least 1".into());
    }
    a.red = a
        .red
        .axes(axes.map_or(Axes::All, Axes::List))
        .keepdim(keepdim)
        .correction(correction);
    Ok(a)
}

fn value(p: &mut lexopt::Parser, flag: &str) -> Result<String, String> {
    let v = p
        .value()
        .map_err(|e| format!("invalid value for {flag}: {e}"))?;
    v.into_string()
        .map_err(|v| format!("invalid value {v:?} for {flag}: not text"))
}

fn one<T: std::str::FromStr>(p: &mut lexopt::Parser, flag: &str, takes: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    let v = value(p, flag)?;
    v.trim()
        .parse()
        .map_err(|e| format!("invalid value {v:?} for {flag} ({e}): {flag} takes {takes}"))
}

fn list<T: std::str::FromStr>(
    p: &mut lexopt::Parser,
    flag: &str,
    takes: &str,
) -> Result<Vec<T>, String>
where
    T::Err: std::fmt::Display,
{
    parse_list(&value(p, flag)?, flag, takes)
}

fn parse_list<T: std::str::FromStr>(v: &str, flag: &str, takes: &str) -> Result<Vec<T>, String>
where
    T::Err: std::fmt::Display,
{
    v.split(',')
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|e| format!("invalid value {s:?} for {flag} ({e}): {flag} takes {takes}"))
        })
        .collect()
}
