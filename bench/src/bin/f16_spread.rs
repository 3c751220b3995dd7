//! Diagnostic: does the speed of an f16 sum along axis 0 of 8192 × 8192 follow where its array
//! (or the pool's temporaries) lie in memory, or the data?
//!
//!     cargo run --release -p wgpu-reduce-bench --bin f16_spread -- [--placements P] [--fresh F]
//!         [--repeat R] [--warm] [--blocks MIB]
//!
//! Options:
//!   --placements P   arrays uploaded in turn, each after a padding buffer (default 8)
//!   --fresh F        arrays of fresh data uploaded in turn afterwards (default 3)
//!   --repeat R       runs per figure (default 20)
//!   --warm           runs the reduction for WGPU_REDUCE_WARM_MS (500) before each figure, so
//!                    that the GPU's clock is up (NVIDIA's driver lowers it when the GPU idles)
//!   --blocks MIB     wgpu's allocator sub-allocates in blocks of MIB MiB (MemoryHints::Manual;
//!                    larger buffers get memory of their own); default: MemoryHints::Performance
//!
//! In one process it uploads the same f16 matrix P times, each after a padding buffer of a
//! different size that stays allocated (so each copy lies elsewhere), and prints for each the
//! median GPU time of the sum along axis 0 and of the whole-array sum (ten per submission, per
//! sum), with f32 results and with f16 results (PyTorch's default for f16 input), first with the pool's temporaries of the copy before, then after `trim_pool` (fresh
//! temporaries). Then it uploads fresh data (new seeds) into new arrays, one at a time. Every
//! result is checked against f64 sums of the data: each column's within
//! `(rows + log2 rows + 4) · 2⁻²⁴ · Σ|x|` of the column, the whole sum likewise over all
//! elements; f16 results may differ by half an f16 ulp (2⁻¹¹ of the value) more.

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;

use std::process::ExitCode;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu_reduce::half::f16;
use wgpu_reduce::{Context, Element, GpuArray, ReduceOp, Reduction};

const USAGE: &str =
    "usage: f16_spread [--placements P] [--fresh F] [--repeat R] [--warm] [--blocks MIB]";
const K: usize = 10;
const SIDE: usize = 8192;

struct Args {
    placements: usize,
    fresh: u64,
    repeat: usize,
    warm: bool,
    blocks: Option<u64>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        placements: 8,
        fresh: 3,
        repeat: 20,
        warm: false,
        blocks: None,
    };
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("placements") => a.placements = count(&mut p, &flag)?,
            Long("fresh") => a.fresh = count(&mut p, &flag)? as u64,
            Long("repeat") => a.repeat = count(&mut p, &flag)?,
            Long("warm") => a.warm = true,
            Long("blocks") => a.blocks = Some(count(&mut p, &flag)? as u64),
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("f16_spread.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(a)
}

/// The data and its f64 sums: per column (sum, sum of magnitudes), and over everything.
struct Data {
    x: Vec<f16>,
    cols: Vec<(f64, f64)>,
    all: (f64, f64),
}

fn data(seed: u64) -> Data {
    let mut rng = StdRng::seed_from_u64(seed);
    let x: Vec<f16> = (0..SIDE * SIDE)
        .map(|_| f16::from_f32(rng.gen_range(-1.0f32..1.0)))
        .collect();
    let mut cols = vec![(0f64, 0f64); SIDE];
    for row in x.chunks_exact(SIDE) {
        for (c, v) in cols.iter_mut().zip(row) {
            let v = f64::from(v.to_f32());
            c.0 += v;
            c.1 += v.abs();
        }
    }
    let all = cols.iter().fold((0.0, 0.0), |a, c| (a.0 + c.0, a.1 + c.1));
    Data { x, cols, all }
}

/// The error bound of an f32 sum of `n` terms whose magnitudes sum to `sum_abs`.
fn bound(n: usize, sum_abs: f64) -> f64 {
    let u = f64::from(f32::EPSILON) / 2.0;
    (n as f64 + (n as f64).log2().ceil() + 4.0) * u * sum_abs
}

/// Median GPU time per reduction (K per submission) with results of type `O`, and the last
/// result, read back as f64.
fn time<O: Element + Into<f64>>(
    ctx: &Context,
    x: &GpuArray<f16>,
    red: &Reduction,
    repeat: usize,
    warm: bool,
) -> (f64, Vec<f64>) {
    if warm {
        support::warm_up(|| {
            let mut rec = ctx.recorder();
            for _ in 0..K {
                rec.reduce::<f16, O>(x, red)?;
            }
            rec.submit()?.wait().map(drop)
        })
        .expect("warm-up");
    }
    let mut times = Vec::new();
    let mut got = Vec::new();
    for run in 0..=repeat {
        let mut rec = ctx.recorder();
        rec.enable_timestamps();
        let mut last = None;
        for _ in 0..K {
            last = Some(rec.reduce::<f16, O>(x, red).expect("record"));
        }
        let token = rec.read(last.as_ref().expect("K > 0")).expect("read");
        let res = rec.submit().expect("submit").wait().expect("wait");
        got = res.get(&token).expect("get");
        if run > 0 {
            times.extend(res.gpu_time().map(|g| g / K as u32));
        }
    }
    let got = got.into_iter().map(Into::into).collect();
    (us(support::median(&mut times)), got)
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// How many of `got` are outside the bound of their reference `(sum, sum of magnitudes)` over
/// `n` terms, plus the results missing or extra; `half`: the results are rounded to f16, so
/// half an f16 ulp of the value is allowed besides.
fn wrong(got: &[f64], want: &[(f64, f64)], n: usize, half: bool) -> usize {
    let rounding = if half { 2f64.powi(-11) } else { 0.0 };
    got.iter()
        .zip(want)
        .filter(|(g, w)| (**g - w.0).abs() > bound(n, w.1) + rounding * w.0.abs())
        .count()
        + got.len().abs_diff(want.len())
}

/// Times both sums of `x` with f32 and f16 results and checks them; prints one line.
fn row(ctx: &Context, label: &str, x: &GpuArray<f16>, d: &Data, args: &Args) -> bool {
    let axis0 = Reduction::new(ReduceOp::Sum).axes(0);
    let whole = Reduction::new(ReduceOp::Sum);
    let since_epoch = |t: std::time::SystemTime| {
        t.duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64())
    };
    let start = since_epoch(std::time::SystemTime::now());
    let mut line = format!("{label:<34}");
    let mut bad = 0;
    for (name, red, want, n) in [
        ("axis 0", &axis0, &d.cols[..], SIDE),
        ("whole", &whole, std::slice::from_ref(&d.all), SIDE * SIDE),
    ] {
        let (t32, g32) = time::<f32>(ctx, x, red, args.repeat, args.warm);
        let (t16, g16) = time::<f16>(ctx, x, red, args.repeat, args.warm);
        bad += wrong(&g32, want, n, false) + wrong(&g16, want, n, true);
        line += &format!(" {name}: f32 out {t32:>6.1} us, f16 out {t16:>6.1} us;");
    }
    let end = since_epoch(std::time::SystemTime::now());
    println!(
        "{line} {} (unix s {start:.1}-{end:.1})",
        if bad == 0 {
            "ok".to_string()
        } else {
            format!("WRONG ({bad} results)")
        }
    );
    bad == 0
}

fn main() -> ExitCode {
    let Some(args) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let mut options = wgpu_reduce::ContextOptions::default();
    if let Some(mib) = args.blocks {
        options.memory_hints = wgpu::MemoryHints::Manual {
            suballocated_device_memory_block_size: (mib << 20)..(mib << 20),
        };
    }
    let Some(ctx) = support::open_context(options) else {
        return ExitCode::from(2);
    };
    let seed = support::seed();
    println!(
        "seed: {seed} | repeat: {} | sums per submission: {K}",
        args.repeat
    );
    let d = data(seed);
    let shape = [SIDE, SIDE];
    let mut ok = true;
    let mut kept = Vec::new();
    for p in 0..args.placements {
        // Padding of p * 5 MiB + p * 96 KiB, kept allocated, before each copy.
        let pad = ctx.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("f16_spread padding"),
            size: (p as u64 + 1) * (5 << 20) + p as u64 * (96 << 10),
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let x = ctx.upload_shaped(&d.x, &shape).expect("upload");
        ok &= row(
            &ctx,
            &format!("copy {p}, pooled temporaries"),
            &x,
            &d,
            &args,
        );
        ctx.trim_pool();
        ok &= row(&ctx, &format!("copy {p}, fresh temporaries"), &x, &d, &args);
        kept.push((pad, x));
    }
    drop(kept);
    for k in 1..=args.fresh {
        let other = data(seed.wrapping_add(k));
        let x = ctx.upload_shaped(&other.x, &shape).expect("upload");
        ok &= row(&ctx, &format!("seed + {k}"), &x, &other, &args);
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
