//! Our radix sort and radix select, timed: keys of whole arrays, argsort of f32 (a stable
//! key-value sort: indices move with the keys), sorts along rows and top-k of f32 (k = 100 and
//! k = n/100, sorted, values and indices), each result checked against a CPU sort.
//! `benches/torch_sort.py` times PyTorch's and CuPy's (CUB's) sorts of the same cases in the
//! same run (benches/device.sh).
//!
//!     cargo run --release -p wgpu-reduce-bench --bin sort -- --n 1048576,16777216
//!
//! Options:
//!   --op LIST      of: sort (u32 keys: case keys_u32), argsort (f32, stable: argsort_f32),
//!                  rows (f32 keys along the last axis: rows_f32), topk (f32: topk_k<k>);
//!                  default all four
//!   --n A,B,..     lengths of the whole-array cases (default 2^20, 2^22, 2^24, 2^26, 2^28)
//!   --shape S,..   shapes of rows_f32 (default 4096x4096,65536x256)
//!   --topk-n A,..  lengths of topk_f32, each with k = 100 and k = n/100 (default 2^24)
//!   --repeat R     timed batches per figure, after a warm-up; medians (default 20)
//!   --batch K      sorts recorded into one submission per timed batch (default 5)
//!   --csv PATH     append one line per figure
//!
//! Columns: `gpu us` the GPU time of one sort (timestamps around a batch of K, divided by K),
//! `G keys/s` the keys it sorts per second of that, `wall us` the batch's wall time per sort
//! (record, submit, wait; nothing read back). Exits with status 1 if a result is wrong.

use std::process::ExitCode;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu_reduce::{Context, Element, GpuArray, Sort, TopK};
use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;
use wgpu_reduce_bench::support::{time_batches, Figure};

const USAGE: &str = "usage: sort [--op LIST] [--n A,B] [--shape S,..] [--topk-n A,..] \
                     [--repeat R] [--batch K] [--csv PATH]";

/// The operations of `--op` and the cases they time.
const OPS: [(&str, &str); 4] = [
    ("sort", "keys_u32"),
    ("argsort", "argsort_f32"),
    ("rows", "rows_f32"),
    ("topk", "topk_f32"),
];

struct Args {
    cases: Vec<String>,
    n: Vec<usize>,
    shapes: Vec<Vec<usize>>,
    topk_n: Vec<usize>,
    repeat: usize,
    batch: usize,
    csv: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        cases: OPS.map(|(_, case)| case.to_string()).to_vec(),
        n: [20, 22, 24, 26, 28].map(|p| 1usize << p).to_vec(),
        shapes: vec![vec![4096, 4096], vec![65536, 256]],
        topk_n: vec![1 << 24],
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
            Long("shape") => a.shapes = shapes(&mut p, &flag)?,
            Long("topk-n") => a.topk_n = sizes(&mut p, &flag)?,
            Long("repeat") => a.repeat = count(&mut p, &flag)?,
            Long("batch") => a.batch = count(&mut p, &flag)?,
            Long("csv") => a.csv = Some(text(&mut p, &flag)?),
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("sort.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(a)
}

fn print(a: &Args, case: &str, shape: &[usize], ok: bool, f: &Figure) {
    let n: usize = shape.iter().product();
    let shape_s = shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x");
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let rate = f.gpu.map(|g| n as f64 / g.as_secs_f64() / 1e9);
    println!(
        "{case:>12} {shape_s:>12} {:>10} {:>9} {:>10.1}  {}",
        f.gpu.map_or("-".into(), |g| format!("{:.1}", us(g))),
        rate.map_or("-".into(), |r| format!("{r:.2}")),
        us(f.wall),
        if ok { "ok" } else { "WRONG" }
    );
    if let Some(path) = &a.csv {
        let line = format!(
            "wgpu-reduce,{case},{shape_s},{n},{},{:.3},{ok}\n",
            f.gpu.map_or(String::new(), |g| format!("{:.3}", us(g))),
            us(f.wall)
        );
        if let Err(e) = support::append_line(path, &line) {
            eprintln!("{e}");
        }
    }
}

/// Stable order of each row of `keys` (floats: total order, NaN last).
fn stable_order(keys: &[f32], len: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(keys.len());
    for row in keys.chunks(len) {
        let mut idx: Vec<u32> = (0..row.len() as u32).collect();
        idx.sort_by(|&x, &y| row[x as usize].total_cmp(&row[y as usize]));
        out.extend(idx);
    }
    out
}

fn upload<T: Element>(
    ctx: &Context,
    data: &[T],
    shape: &[usize],
) -> wgpu_reduce::Result<GpuArray<T>> {
    ctx.upload_shaped(data, shape)
}

/// Top-k of `n` random f32 (sorted, the largest), checked against a stable CPU sort: values
/// and indices.
fn topk_case(
    ctx: &Context,
    a: &Args,
    rng: &mut StdRng,
    n: usize,
    k: usize,
) -> wgpu_reduce::Result<(bool, Figure)> {
    let keys: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
    let x = ctx.upload(&keys)?;
    let topk = TopK::new();
    let (values, indices) = ctx.run(|rec| rec.topk(&x, k, &topk))?;
    let mut want: Vec<u32> = (0..n as u32).collect();
    want.sort_by(|&i, &j| keys[j as usize].total_cmp(&keys[i as usize]));
    want.truncate(k);
    let ok = indices == want
        && values
            .iter()
            .zip(&want)
            .all(|(v, &i)| *v == keys[i as usize]);
    let f = time_batches(ctx, a.batch, a.repeat, &|rec| {
        rec.topk(&x, k, &topk).map(drop)
    })?;
    Ok((ok, f))
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
        "case", "shape", "gpu us", "G keys/s", "wall us"
    );
    let mut wrong = false;
    let sort = Sort::new();
    for case in a.cases.clone() {
        if case == "topk_f32" {
            for &n in &a.topk_n {
                for k in [100.min(n), (n / 100).max(1)] {
                    match topk_case(&ctx, &a, &mut rng, n, k) {
                        Ok((ok, f)) => {
                            wrong |= !ok;
                            print(&a, &format!("topk_k{k}"), &[n], ok, &f);
                        }
                        Err(e) => println!("topk {n} k={k}: {e}"),
                    }
                }
            }
            continue;
        }
        let shapes: Vec<Vec<usize>> = if case == "rows_f32" {
            a.shapes.clone()
        } else {
            a.n.iter().map(|&n| vec![n]).collect()
        };
        for shape in shapes {
            let n: usize = shape.iter().product();
            let len = *shape.last().unwrap_or(&1);
            let result = (|| -> wgpu_reduce::Result<(bool, Figure)> {
                if case == "keys_u32" {
                    let keys: Vec<u32> = (0..n).map(|_| rng.gen()).collect();
                    let x = upload(&ctx, &keys, &shape)?;
                    let got = ctx.run(|rec| rec.sort(&x, &sort))?;
                    let mut want = keys;
                    want.sort_unstable();
                    let f = time_batches(&ctx, a.batch, a.repeat, &|rec| {
                        rec.sort(&x, &sort).map(drop)
                    })?;
                    Ok((got == want, f))
                } else {
                    // f32 keys with many ties (so that stability matters) and some NaN.
                    let keys: Vec<f32> = (0..n)
                        .map(|_| {
                            if rng.gen_bool(0.001) {
                                f32::NAN
                            } else {
                                (rng.gen_range(-1.0f32..1.0) * 1000.0).round()
                            }
                        })
                        .collect();
                    let x = upload(&ctx, &keys, &shape)?;
                    let got = ctx.run(|rec| rec.argsort(&x, &sort))?;
                    let ok = got == stable_order(&keys, len);
                    let f = time_batches(&ctx, a.batch, a.repeat, &|rec| {
                        rec.argsort(&x, &sort).map(drop)
                    })?;
                    Ok((ok, f))
                }
            })();
            match result {
                Ok((ok, f)) => {
                    wrong |= !ok;
                    print(&a, &case, &shape, ok, &f);
                }
                Err(e) => println!("{case:>12} {shape:?}: {e}"),
            }
        }
    }
    if wrong {
        eprintln!("some results were WRONG");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
