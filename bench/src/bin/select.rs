//! Our compaction, nonzero, histograms, bincount and unique values, timed, each result checked
//! against a CPU reference. `benches/torch_select.py` times PyTorch's operations on the same
//! cases in the same run (benches/device.sh).
//!
//!     cargo run --release -p wgpu-reduce-bench --bin select -- --n 1048576,16777216
//!
//! Cases (random data, drawn fresh from a printed seed):
//!   compact_f32    `compact` of f32 with a u32 mask keeping half (torch.masked_select)
//!   nonzero_f32    `nonzero` of 1-D f32, half of it zero (torch.nonzero)
//!   histc_f32      `histogram` of uniform f32 in [0, 1), 256 bins (torch.histc)
//!   histc_wide_f32 the same with 65,536 bins (counted in memory, not in workgroup memory)
//!   bincount_i32   `bincount` of i32 in 0..1000, length 1000 (torch.bincount)
//!   unique_i32     `unique_values` of i32 with 1000 distinct values (torch.unique, sorted)
//!
//! Options:
//!   --op LIST      of: compact, nonzero, histc, histc_wide, bincount, unique; default all
//!   --n A,B,..     lengths (default 2^20, 2^24, 2^26)
//!   --repeat R     timed batches per figure, after a warm-up; medians (default 20)
//!   --batch K      operations recorded into one submission per timed batch (default 5)
//!   --csv PATH     append one line per figure
//!
//! Columns: `gpu us` the GPU time of one operation (timestamps around a batch of K, divided by
//! K), `G/s` elements per second of that, `wall us` the batch's wall time per operation (record,
//! submit, wait; nothing read back). Exits with status 1 if a result is wrong.

use std::process::ExitCode;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu_reduce::Context;
use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;
use wgpu_reduce_bench::support::{time_batches, Figure};

const USAGE: &str = "usage: select [--op LIST] [--n A,B] [--repeat R] [--batch K] [--csv PATH]";

/// The operations of `--op` and their cases.
const OPS: [(&str, &str); 6] = [
    ("compact", "compact_f32"),
    ("nonzero", "nonzero_f32"),
    ("histc", "histc_f32"),
    ("histc_wide", "histc_wide_f32"),
    ("bincount", "bincount_i32"),
    ("unique", "unique_i32"),
];

struct Args {
    cases: Vec<String>,
    n: Vec<usize>,
    repeat: usize,
    batch: usize,
    csv: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        cases: OPS.map(|(_, case)| case.to_string()).to_vec(),
        n: [20, 24, 26].map(|p| 1usize << p).to_vec(),
        repeat: 20,
        batch: 5,
        csv: None,
    };
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("op") => {
                let all = OPS.map(|(op, _)| op).join(", ");
                let ops: Vec<String> = list(&mut p, &flag, &all)?;
                a.cases = Vec::new();
                for op in ops {
                    match OPS.iter().find(|(name, _)| *name == op) {
                        Some((_, case)) => a.cases.push(case.to_string()),
                        None => return Err(format!("invalid value {op:?} in --op: takes {all}")),
                    }
                }
            }
            Long("n") => a.n = sizes(&mut p, &flag)?,
            Long("repeat") => a.repeat = count(&mut p, &flag)?,
            Long("batch") => a.batch = count(&mut p, &flag)?,
            Long("csv") => a.csv = Some(text(&mut p, &flag)?),
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("select.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(a)
}

fn print(a: &Args, case: &str, n: usize, ok: bool, f: &Figure) {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let rate = f.gpu.map(|g| n as f64 / g.as_secs_f64() / 1e9);
    println!(
        "{case:>12} {n:>12} {:>10} {:>9} {:>10.1}  {}",
        f.gpu.map_or("-".into(), |g| format!("{:.1}", us(g))),
        rate.map_or("-".into(), |r| format!("{r:.2}")),
        us(f.wall),
        if ok { "ok" } else { "WRONG" }
    );
    if let Some(path) = &a.csv {
        let line = format!(
            "wgpu-reduce,{case},{n},{n},{},{:.3},{ok}\n",
            f.gpu.map_or(String::new(), |g| format!("{:.3}", us(g))),
            us(f.wall)
        );
        if let Err(e) = support::append_line(path, &line) {
            eprintln!("{e}");
        }
    }
}

/// Runs one case of `n` elements: its result checked, then timed.
fn case(
    ctx: &Context,
    a: &Args,
    rng: &mut StdRng,
    case: &str,
    n: usize,
) -> wgpu_reduce::Result<(bool, Figure)> {
    match case {
        "compact_f32" | "nonzero_f32" => {
            let x: Vec<f32> = (0..n)
                .map(|_| {
                    if rng.gen_bool(0.5) {
                        0.0
                    } else {
                        rng.gen_range(0.5f32..1.0)
                    }
                })
                .collect();
            let mask: Vec<u32> = (0..n).map(|_| rng.gen_range(0..2)).collect();
            let (gx, gm) = (ctx.upload(&x)?, ctx.upload(&mask)?);
            if case == "compact_f32" {
                let got = ctx.run(|rec| rec.compact(&gx, &gm))?;
                let want: Vec<f32> = (0..n).filter(|&i| mask[i] != 0).map(|i| x[i]).collect();
                let f = time_batches(ctx, a.batch, a.repeat, &|rec| {
                    rec.compact(&gx, &gm).map(drop)
                })?;
                Ok((got == want, f))
            } else {
                let got = ctx.run(|rec| rec.nonzero(&gx))?;
                let want: Vec<u32> = (0..n as u32).filter(|&i| x[i as usize] != 0.0).collect();
                let f = time_batches(ctx, a.batch, a.repeat, &|rec| rec.nonzero(&gx).map(drop))?;
                Ok((got == want, f))
            }
        }
        "histc_f32" | "histc_wide_f32" => {
            let bins = if case == "histc_f32" { 256 } else { 65536 };
            let x: Vec<f32> = (0..n).map(|_| rng.gen_range(0.0f32..1.0)).collect();
            let gx = ctx.upload(&x)?;
            let got = ctx.run(|rec| rec.histogram(&gx, bins, 0.0, 1.0))?;
            let mut want = vec![0u32; bins];
            for &v in &x {
                want[((v * bins as f32) as usize).min(bins - 1)] += 1;
            }
            let f = time_batches(ctx, a.batch, a.repeat, &|rec| {
                rec.histogram(&gx, bins, 0.0, 1.0).map(drop)
            })?;
            Ok((got == want, f))
        }
        "bincount_i32" => {
            let x: Vec<i32> = (0..n).map(|_| rng.gen_range(0..1000)).collect();
            let gx = ctx.upload(&x)?;
            let got = ctx.run(|rec| rec.bincount(&gx, 1000))?;
            let mut want = vec![0u32; 1000];
            for &v in &x {
                want[v as usize] += 1;
            }
            let f = time_batches(ctx, a.batch, a.repeat, &|rec| {
                rec.bincount(&gx, 1000).map(drop)
            })?;
            Ok((got == want, f))
        }
        _ => {
            let values: Vec<i32> = (0..1000).map(|_| rng.gen()).collect();
            let x: Vec<i32> = (0..n).map(|_| values[rng.gen_range(0..1000)]).collect();
            let gx = ctx.upload(&x)?;
            let got = ctx.run(|rec| rec.unique_values(&gx))?;
            let mut want = x.clone();
            want.sort_unstable();
            want.dedup();
            let f = time_batches(ctx, a.batch, a.repeat, &|rec| {
                rec.unique_values(&gx).map(drop)
            })?;
            Ok((got == want, f))
        }
    }
}

fn main() -> ExitCode {
    let Some(a) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let Some(ctx) = support::open_context(wgpu_reduce::ContextOptions::default()) else {
        return ExitCode::from(2);
    };
    let seed = support::seed();
    let mut rng = StdRng::seed_from_u64(seed);
    println!("seed {seed}; batch {}; repeat {}", a.batch, a.repeat);
    println!(
        "{:>12} {:>12} {:>10} {:>9} {:>10}  check",
        "case", "n", "gpu us", "G/s", "wall us"
    );
    let mut wrong = false;
    for name in a.cases.clone() {
        for &n in &a.n {
            match case(&ctx, &a, &mut rng, &name, n) {
                Ok((ok, f)) => {
                    wrong |= !ok;
                    print(&a, &name, n, ok, &f);
                }
                Err(e) => println!("{name:>12} {n}: {e}"),
            }
        }
    }
    if wrong {
        eprintln!("some results were WRONG");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
