//! Diagnostic: how fast is one large scan per submission, and what slows it down?
//!
//!     cargo run --release -p wgpu-reduce-bench --bin scan_single -- [--log2 28] [--rounds 5] [--lookback] \
//!         [--steps warm,single,batch,sum,read,single,batch,sum]
//!
//! Uploads one f32 array of 2^L random values, then runs the steps in order, printing each with
//! the seconds since the first and, for timed steps, the GPU time (timestamps around the pass)
//! of every run:
//! - `warm`: scans, ten per submission, for 0.5 s (`WGPU_REDUCE_WARM_MS`);
//! - `single`, `batch`: `--rounds` submissions of one scan / of ten scans (µs per scan), into
//!   pooled outputs (`Recorder::scan`); `fixed`: one scan per submission into one output array
//!   (`Recorder::scan_to`); `sum`: one whole-array sum per submission (reads only);
//! - `read`: one scan whose result is read back to the host (a second or more with the GPU idle);
//!   `readx`: the input read back; `readsmall`: 2^16 values uploaded and read back;
//! - `copy`: a GPU copy of the input into a mappable buffer; `map`: that buffer mapped and summed
//!   on the host;
//! - `sleep`: one second idle; `trim`: `Context::trim_pool`.
//!
//! On the H200 (2026-11-30) `read` was followed by scans 2.6x and sums 2.4x
//! slower than before it, until a `warm` step: the driver had lowered the SM clock while the
//! host worked.

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;

use std::process::ExitCode;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu_reduce::{
    Context, ContextOptions, GpuArray, ReduceOp, Reduction, Scan, ScanAlgorithm, ScanOp,
};

const USAGE: &str = "usage: scan_single [--log2 L] [--rounds R] [--lookback] [--steps S,S,..]";
const STEPS: [&str; 12] = [
    "warm",
    "single",
    "batch",
    "sum",
    "fixed",
    "read",
    "readx",
    "readsmall",
    "copy",
    "map",
    "sleep",
    "trim",
];

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn scan_into(ctx: &Context, x: &GpuArray<f32>, out: &GpuArray<f32>, scan: &Scan, k: usize) -> f64 {
    let mut rec = ctx.recorder();
    rec.enable_timestamps();
    for _ in 0..k {
        rec.scan_to(x, scan, out).expect("record");
    }
    let res = rec.submit().expect("submit").wait().expect("wait");
    us(res.gpu_time().expect("timestamps")) / k as f64
}

fn main() -> ExitCode {
    let parsed = (|| -> Result<(u32, usize, ScanAlgorithm, String), String> {
        let mut log2 = 28u32;
        let mut rounds = 5usize;
        let mut alg = ScanAlgorithm::ReduceThenScan;
        let mut steps = String::from("warm,single,batch,sum,read,single,batch,sum");
        let mut p = Parser::from_env();
        while let Some(arg) = p.next().map_err(|e| e.to_string())? {
            let flag = name(&arg);
            match arg {
                Long("log2") => {
                    log2 = one(&mut p, &flag, "a whole number from 10 to 29")?;
                    if !(10..=29).contains(&log2) {
                        return Err(format!("{flag} {log2}: takes a whole number from 10 to 29"));
                    }
                }
                Long("rounds") => rounds = count(&mut p, &flag)?,
                Long("lookback") => alg = ScanAlgorithm::DecoupledFallback,
                Long("steps") => steps = text(&mut p, &flag)?,
                Short('h') | Long("help") => {
                    println!("{USAGE}\n\nsteps: {}", STEPS.join(", "));
                    std::process::exit(0);
                }
                other => return Err(other.unexpected().to_string()),
            }
        }
        Ok((log2, rounds, alg, steps))
    })();
    let Some((log2, rounds, alg, steps)) = support::parsed(or_usage(parsed, USAGE)) else {
        return ExitCode::from(2);
    };
    if let Some(bad) = steps.split(',').find(|s| !STEPS.contains(s)) {
        eprintln!(
            "unknown step {bad:?}: the steps are {}\n{USAGE}",
            STEPS.join(", ")
        );
        return ExitCode::from(2);
    }
    let Some(ctx) = support::open_context(ContextOptions::default()) else {
        return ExitCode::from(2);
    };
    let n = 1usize << log2;
    let seed = support::seed();
    println!("scan_single: n=2^{log2} rounds={rounds} {alg:?} seed={seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
    let x = ctx.upload(&data).expect("upload");
    let output = ctx.zeros::<f32>(&[n]).expect("output");
    let scan = Scan::new(ScanOp::Add).algorithm(alg);
    let pooled = |k: usize| {
        let mut rec = ctx.recorder();
        rec.enable_timestamps();
        let keep: Vec<_> = (0..k)
            .map(|_| rec.scan::<f32, f32>(&x, &scan).expect("record"))
            .collect();
        let res = rec.submit().expect("submit").wait().expect("wait");
        drop(keep);
        us(res.gpu_time().expect("timestamps")) / k as f64
    };
    let red = Reduction::new(ReduceOp::Sum);
    let sum = || {
        let mut rec = ctx.recorder();
        rec.enable_timestamps();
        let y = rec.reduce::<f32, f32>(&x, &red).expect("record");
        let res = rec.submit().expect("submit").wait().expect("wait");
        drop(y);
        us(res.gpu_time().expect("timestamps"))
    };
    // The mappable copy of the input (as large as it), made only if a step uses it.
    let host_copy = std::cell::OnceCell::new();
    let host_buffer = || {
        host_copy.get_or_init(|| {
            ctx.device().create_buffer(&wgpu::BufferDescriptor {
                label: Some("scan_single host copy"),
                size: (n * 4) as u64,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        })
    };
    let t0 = std::time::Instant::now();
    for step in steps.split(',') {
        let list = |v: Vec<f64>| {
            v.iter()
                .map(|t| format!("{t:.0}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let what = match step {
            "warm" => {
                support::warm_up(|| {
                    pooled(10);
                    Ok::<(), ()>(())
                })
                .ok();
                String::new()
            }
            "single" => list((0..rounds).map(|_| pooled(1)).collect()),
            "batch" => list((0..rounds).map(|_| pooled(10)).collect()),
            "sum" => list((0..rounds).map(|_| sum()).collect()),
            "fixed" => list(
                (0..rounds)
                    .map(|_| scan_into(&ctx, &x, &output, &scan, 1))
                    .collect(),
            ),
            "read" => {
                let y = ctx.scan::<f32, f32>(&x, &scan).expect("scan");
                let back = ctx.read(&y).expect("read");
                format!("{} values", back.len())
            }
            "readx" => format!("{} values", ctx.read(&x).expect("read").len()),
            "readsmall" => {
                let small = ctx.upload(&data[..n.min(1 << 16)]).expect("upload");
                format!("{} values", ctx.read(&small).expect("read").len())
            }
            "copy" => {
                let mut enc = ctx.device().create_command_encoder(&Default::default());
                enc.copy_buffer_to_buffer(x.buffer(), 0, host_buffer(), 0, (n * 4) as u64);
                ctx.queue().submit([enc.finish()]);
                ctx.device()
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("poll");
                String::new()
            }
            "map" => {
                let slice = host_buffer().slice(..);
                slice.map_async(wgpu::MapMode::Read, |r| r.expect("map"));
                ctx.device()
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("poll");
                let sum: f64 =
                    bytemuck::cast_slice::<u8, f32>(&slice.get_mapped_range().expect("range"))
                        .iter()
                        .map(|&v| f64::from(v))
                        .sum();
                host_buffer().unmap();
                format!("host sum {sum:.3}")
            }
            "sleep" => {
                std::thread::sleep(Duration::from_secs(1));
                String::new()
            }
            "trim" => {
                ctx.trim_pool();
                String::new()
            }
            _ => String::new(),
        };
        println!("{:>8.3} s {step:<9} {what}", t0.elapsed().as_secs_f64());
    }
    ExitCode::SUCCESS
}
