//! The main job: reduce large random arrays on the GPU, check every result against a CPU
//! reference in f64, and report wall time, GPU time and bandwidth.
//!
//!     cargo run --release --example sum
//!     cargo run --release --example sum -- --sizes 1024,4096 --dtype i32 --repeat 50
//!     cargo run --release --example sum -- --n 1000000,67108864 --op max --batch 20 --csv out.csv
//!     cargo run --release --example sum -- --shape 8192x8192,3x1048576 --axis 0 --dtype f16
//!     cargo run --release --example sum -- --n 16777216 --op argmax --dtype bf16
//!     cargo run --release --example sum -- --shape 8192x8192 --axis -1 --op logsumexp
//!
//! Options:
//!   --sizes A,B,..   square arrays of A², B², .. elements (default 2048,4096,8192 on a GPU,
//!                    1024,2048,4096 on a CPU adapter such as lavapipe)
//!   --n A,B,..       1-D arrays of exactly A, B, .. elements (instead of --sizes)
//!   --shape S,..     arrays of shape S (dimensions joined by x, e.g. 8192x8192 or 4x5x6)
//!   --axis A,..      reduce along these axes (negative counts from the end; default: all)
//!   --keepdim        keep reduced axes as size-1 dimensions
//!   --dtype T        f32 (default), i32, u32, f16 or bf16
//!   --op OP          sum (default), prod, min, max, mean, var, std, argmin, argmax, nansum,
//!                    nanmean, nanmin, nanmax, nanargmin, nanargmax, any, all, count_nonzero,
//!                    logsumexp, aminmax, norm1, norm2, norm_inf, norm_neginf, norm0, normp or
//!                    dot (of the array with itself)
//!   --p P            normp's order (default 2)
//!   --out T          result type where there is a choice (f32 for f16/bf16 input; default: as
//!                    PyTorch picks: the input type, f32 for mean/var/std of 32-bit types)
//!   --correction C   var/std divisor n - C (default 1)
//!   --repeat R       timed runs per size, after a warm-up (0.5 s of batches); medians are printed
//!                    (default 30; 5 on a CPU adapter)
//!   --batch K        also time K reductions recorded into one submission (default 10)
//!   --csv PATH       append one line per size to PATH
//!   --wg W           workgroup size (64, 128, 256); --max-groups G: first-pass workgroups of
//!                    whole arrays; --target-groups G: workgroups a pass along axes aims for;
//!   --no-subgroups   force the shared-memory workgroup step
//!   --memory-usage   wgpu's MemoryHints::MemoryUsage allocator setting (default Performance)
//!
//! Sizes and axes are checked against the device before any data is made. A spinner on stderr
//! shows what a long step is doing. Exits with status 1 if any result is wrong, 2 on bad
//! arguments or GPU errors.

#[path = "support/args.rs"]
mod args;
#[path = "support/bench.rs"]
mod bench;
#[path = "../tests/common/reference.rs"]
#[allow(dead_code)]
mod reference;
#[path = "support/mod.rs"]
mod support;

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use args::*;
use bench::{gbps, shape_row, Case};
use rand::rngs::StdRng;
use rand::SeedableRng;
use wgpu_reduce::{Axes, DType, ReduceOp, Reduction};

struct Args {
    /// None: the defaults for the adapter (see `default_shapes`).
    shapes: Option<Vec<Vec<usize>>>,
    case: Case,
    repeat: Option<usize>,
    csv: Option<String>,
    options: wgpu_reduce::ContextOptions,
}

const USAGE: &str =
    "usage: sum [--sizes A,B | --n A,B | --shape AxB,..] [--axis A,..] [--keepdim] \
[--dtype T] [--op OP] [--p P] [--out T] [--correction C] [--repeat R] [--batch K] [--csv PATH] [--wg W] \
[--max-groups G] [--target-groups G] [--no-subgroups] [--memory-usage] [--help]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        shapes: None,
        case: Case {
            red: Reduction::new(ReduceOp::Sum),
            dtype: DType::F32,
            out: None,
            repeat: 30,
            batch: 10,
        },
        repeat: None,
        csv: None,
        options: wgpu_reduce::ContextOptions::default(),
    };
    let types = "an element type: f32, i32, u32, f16 or bf16";
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| fail(e, USAGE))? {
        let flag = name(&arg);
        match arg {
            Long("sizes") => {
                let sides = sizes(&mut p, &flag)?;
                let squares = sides.iter().map(|&s| s.checked_mul(s).map(|n| vec![n]));
                args.shapes = Some(
                    squares
                        .collect::<Option<_>>()
                        .ok_or("--sizes: a side whose square overflows")?,
                )
            }
            Long("n") => {
                args.shapes = Some(sizes(&mut p, &flag)?.into_iter().map(|n| vec![n]).collect())
            }
            Long("shape") => args.shapes = Some(shapes(&mut p, &flag)?),
            Long("axis") => {
                let takes = "axes as whole numbers, comma-separated (negative counts from the end)";
                args.case.red.axes = Axes::List(list::<i32>(&mut p, &flag, takes)?)
            }
            Long("keepdim") => args.case.red.keepdim = true,
            Long("dtype") => args.case.dtype = one(&mut p, &flag, types)?,
            Long("out") => args.case.out = Some(one(&mut p, &flag, types)?),
            Long("op") => {
                let takes = "an operation: sum, prod, min, max, mean, var, std, argmin, argmax, \
                             nansum, nanmean, nanmin, nanmax, nanargmin, nanargmax, any, all, \
                             count_nonzero, logsumexp, aminmax, norm1, norm2, norm_inf, \
                             norm_neginf, norm0, normp or dot";
                args.case.red.op = one(&mut p, &flag, takes)?
            }
            Long("p") => args.case.red.p = one(&mut p, &flag, "a number above 0, e.g. 3")?,
            Long("correction") => {
                args.case.red.correction = one(&mut p, &flag, "one whole number, e.g. 1")?
            }
            Long("repeat") => args.repeat = Some(count(&mut p, &flag)?),
            Long("batch") => args.case.batch = count(&mut p, &flag)?,
            Long("csv") => args.csv = Some(text(&mut p, &flag)?),
            Long("wg") => {
                let w: u32 = one(&mut p, &flag, "64, 128 or 256")?;
                if !wgpu_reduce::WORKGROUP_SIZES.contains(&w) {
                    return Err(fail(
                        format!("--wg {w}: the kernels are built for 64, 128 and 256"),
                        USAGE,
                    ));
                }
                args.options
                    .tuning
                    .get_or_insert_with(Default::default)
                    .workgroup_size = w
            }
            Long("max-groups") => {
                args.options
                    .tuning
                    .get_or_insert_with(Default::default)
                    .max_workgroups = count(&mut p, &flag)? as u32
            }
            Long("target-groups") => {
                args.options
                    .tuning
                    .get_or_insert_with(Default::default)
                    .target_workgroups = count(&mut p, &flag)? as u32
            }
            Long("no-subgroups") => args.options.subgroups = wgpu_reduce::Subgroups::Off,
            Long("memory-usage") => args.options.memory_hints = wgpu::MemoryHints::MemoryUsage,
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("sum.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(fail(other.unexpected(), USAGE)),
        }
    }
    Ok(args)
}

/// Shapes and timed runs when none are given: large squares on a GPU; smaller ones and fewer
/// runs on a CPU adapter (lavapipe, llvmpipe), so the job takes seconds there.
fn defaults(ctx: &wgpu_reduce::Context) -> (Vec<Vec<usize>>, usize) {
    let cpu = ctx.capabilities().adapter.device_type == wgpu::DeviceType::Cpu;
    let sides: &[usize] = if cpu {
        &[1024, 2048, 4096]
    } else {
        &[2048, 4096, 8192]
    };
    (
        sides.iter().map(|s| vec![s * s]).collect(),
        if cpu { 5 } else { 30 },
    )
}

/// Why `shape` cannot be run here, checked before any data is made: the reduction's axes, and
/// the device's largest buffer.
fn unrunnable(ctx: &wgpu_reduce::Context, case: &Case, shape: &[usize]) -> Option<String> {
    if let Err(e) = case.red.output_shape(shape) {
        return Some(e.to_string());
    }
    let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    let bytes = n.and_then(|n| n.checked_mul(case.dtype.size_bytes()));
    let max = ctx.capabilities().limits.max_buffer_size;
    match bytes {
        Some(b) if (b as u64) <= max => None,
        _ => Some(format!(
            "{} {} values do not fit one buffer of this device (max_buffer_size {max} bytes)",
            n.map_or("more than 2^64".to_string(), |n| n.to_string()),
            case.dtype
        )),
    }
}

fn main() -> ExitCode {
    env_logger::init();
    let parsed = parse_args().map_err(|e| {
        if e.starts_with("error:") {
            e
        } else {
            fail(e, USAGE)
        }
    });
    let Some(args) = support::parsed(parsed) else {
        return ExitCode::from(2);
    };
    let Some(ctx) = support::open_context(args.options.clone()) else {
        return ExitCode::from(2);
    };
    let mut args = args;
    let (default_shapes, default_repeat) = defaults(&ctx);
    let shapes = args.shapes.take().unwrap_or(default_shapes);
    args.case.repeat = args.repeat.unwrap_or(default_repeat);
    for shape in &shapes {
        if let Some(why) = unrunnable(&ctx, &args.case, shape) {
            eprintln!("error: shape {shape:?}: {why}");
            return ExitCode::from(2);
        }
    }
    let seed = support::seed();
    let out = args
        .case
        .out
        .unwrap_or(args.case.red.op.default_output(args.case.dtype));
    println!(
        "op: {} | dtype: {} -> {out} | axes: {:?} | keepdim: {} | repeat: {} | batch: {} | seed: {seed}",
        args.case.red.op.name(),
        args.case.dtype,
        args.case.red.axes,
        args.case.red.keepdim,
        args.case.repeat,
        args.case.batch
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
    for shape in &shapes {
        let shape_s = shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        let bar = support::spinner(&shape_s);
        let progress = |what: &str| bar.set_message(what.to_string());
        let row = shape_row(&ctx, &args.case, shape, &mut rng, &progress);
        bar.finish_and_clear();
        let row = match row {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error at shape {shape_s}: {e}");
                return ExitCode::from(2);
            }
        };
        let n: usize = shape.iter().product();
        let bytes = n * args.case.dtype.size_bytes();
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
            let axes = match &args.case.red.axes {
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
                args.case.red.op.name(),
                args.case.dtype,
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
