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
//!   --repeat R       timed runs per size, after a warm-up (0.5 s of batches); medians are printed
//!   --batch K        also time K reductions recorded into one submission (default 10)
//!   --csv PATH       append one line per size to PATH
//!   --wg W           workgroup size (64, 128, 256); --max-groups G: first-pass workgroups of
//!                    whole arrays; --target-groups G: workgroups a pass along axes aims for;
//!   --no-subgroups   force the shared-memory workgroup step
//!   --memory-usage   wgpu's MemoryHints::MemoryUsage allocator setting (default Performance)
//!
//! Exits with status 1 if any result is wrong, 2 on bad arguments or GPU errors.

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

use bench::{gbps, shape_row, Case};
use rand::rngs::StdRng;
use rand::SeedableRng;
use wgpu_reduce::{Axes, DType, ReduceOp, Reduction};

struct Args {
    shapes: Vec<Vec<usize>>,
    case: Case,
    csv: Option<String>,
    options: wgpu_reduce::ContextOptions,
}

const USAGE: &str =
    "usage: sum [--sizes A,B | --n A,B | --shape AxB,..] [--axis A,..] [--keepdim] \
[--dtype f32|i32|u32|f16|bf16] [--op sum|prod|min|max|mean|var|std|argmin|argmax] [--out T] \
[--correction C] [--repeat R] [--batch K] [--csv PATH] [--wg W] [--max-groups G] [--target-groups G] \
[--no-subgroups] [--memory-usage]";

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
        case: Case {
            red: Reduction::new(ReduceOp::Sum),
            dtype: DType::F32,
            out: None,
            repeat: 30,
            batch: 10,
        },
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
            "--axis" => args.case.red.axes = Axes::List(parse_list::<i32>(&value()?)?),
            "--keepdim" => args.case.red.keepdim = true,
            "--dtype" | "--out" => {
                let v = value()?;
                let d = DType::parse(&v).ok_or(format!(
                    "unknown type {v:?}; use f32, i32, u32, f16 or bf16"
                ))?;
                if flag == "--dtype" {
                    args.case.dtype = d
                } else {
                    args.case.out = Some(d)
                }
            }
            "--op" => {
                let v = value()?;
                args.case.red.op = ReduceOp::parse(&v).ok_or(format!(
                    "unknown op {v:?}; use sum, prod, min, max, mean, var, std, argmin or argmax"
                ))?
            }
            "--correction" => args.case.red.correction = parse_list::<u32>(&value()?)?[0],
            "--repeat" => args.case.repeat = parse_list::<usize>(&value()?)?[0].max(1),
            "--batch" => args.case.batch = parse_list::<usize>(&value()?)?[0].max(1),
            "--csv" => args.csv = Some(value()?),
            "--wg" => args.options.workgroup_size = parse_list::<u32>(&value()?)?[0],
            "--max-groups" => args.options.max_workgroups = parse_list::<u32>(&value()?)?[0],
            "--target-groups" => args.options.target_workgroups = parse_list::<u32>(&value()?)?[0],
            "--no-subgroups" => args.options.subgroups = wgpu_reduce::Subgroups::Off,
            "--memory-usage" => args.options.memory_hints = wgpu::MemoryHints::MemoryUsage,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown option {other:?}\n{USAGE}")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    env_logger::init();
    let Some(args) = support::parsed(parse_args()) else {
        return ExitCode::from(2);
    };
    let Some(ctx) = support::open_context(args.options.clone()) else {
        return ExitCode::from(2);
    };
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
    for shape in &args.shapes {
        let shape_s = shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        let row = match shape_row(&ctx, &args.case, shape, &mut rng) {
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
