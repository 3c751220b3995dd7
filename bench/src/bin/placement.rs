//! Diagnostic: does where and how an array was allocated change how fast it is read?
//!
//!     cargo run --release -p wgpu-reduce-bench --bin placement -- [--max-log2 28] [--repeat 20]
//!
//! Options:
//!   --max-log2 L   the largest array, 2^L f32 (12 to 29; default 28)
//!   --repeat R     runs per figure (default 20)
//!
//! In one process it uploads arrays of 2^26 and 2^28 f32 in a fixed order, by different routes
//! (`Context::upload` = `write_buffer`; a buffer mapped at creation; a GPU copy of another
//! array; a fresh device), and prints for each the median GPU time of a whole-array sum (five
//! sums per submission, per sum) and the wall time of buffer-to-buffer copies. Each result is
//! checked against the f64 sum of the data. A slowdown that follows the allocation (not the
//! kernel, not the clocks) shows as the same kernel on the same data at different speeds.

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu::util::DeviceExt;
use wgpu_reduce::{Context, ContextOptions, GpuArray, ReduceOp, Reduction};

const USAGE: &str = "usage: placement [--max-log2 L] [--repeat R]";
const K: usize = 5;

struct Args {
    max_log2: u32,
    repeat: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        max_log2: 28,
        repeat: 20,
    };
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("max-log2") => {
                let l: u32 = one(&mut p, &flag, "a whole number from 12 to 29")?;
                if !(12..=29).contains(&l) {
                    return Err(format!("{flag} {l}: takes a whole number from 12 to 29"));
                }
                a.max_log2 = l
            }
            Long("repeat") => a.repeat = count(&mut p, &flag)?,
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("placement.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(a)
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Median GPU time per sum (K sums per submission) and whether the value is right.
fn time_sum(ctx: &Context, x: &GpuArray<f32>, want: (f64, f64), repeat: usize) -> (f64, bool) {
    let red = Reduction::new(ReduceOp::Sum);
    let mut times = Vec::new();
    let mut ok = true;
    for run in 0..=repeat {
        let mut rec = ctx.recorder();
        rec.enable_timestamps();
        let mut last = None;
        for _ in 0..K {
            last = Some(rec.reduce::<f32, f32>(x, &red).expect("record"));
        }
        let token = rec.read(last.as_ref().unwrap()).expect("read");
        let res = rec.submit().expect("submit").wait().expect("wait");
        let got = res.get(&token).expect("get")[0] as f64;
        ok &= (got - want.0).abs() <= ctx.tuning().f32_sum_error_bound(x.len(), want.1);
        if run > 0 {
            times.extend(res.gpu_time().map(|g| g / K as u32));
        }
    }
    (us(support::median(&mut times)), ok)
}

/// Median wall time of one buffer-to-buffer copy of `src` (K copies per submission).
fn time_copy(ctx: &Context, src: &wgpu::Buffer, repeat: usize) -> f64 {
    let dst = ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("placement copy target"),
        size: src.size(),
        usage: wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut times = Vec::new();
    for run in 0..=repeat {
        let start = Instant::now();
        let mut enc = ctx.device().create_command_encoder(&Default::default());
        for _ in 0..K {
            enc.copy_buffer_to_buffer(src, 0, &dst, 0, src.size());
        }
        ctx.queue().submit([enc.finish()]);
        ctx.device()
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
        if run > 0 {
            times.push(start.elapsed() / K as u32);
        }
    }
    us(support::median(&mut times))
}

fn storage_buffer(ctx: &Context, bytes: u64, mapped: bool) -> wgpu::Buffer {
    ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("placement array"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: mapped,
    })
}

struct Report<'a> {
    data: &'a [f32],
    prefix: &'a [(f64, f64)],
    repeat: usize,
}

impl Report<'_> {
    fn row(&self, ctx: &Context, label: &str, x: &GpuArray<f32>, copy: Option<&wgpu::Buffer>) {
        let n = x.len();
        let (gpu, ok) = time_sum(
            ctx,
            x,
            self.prefix[n.trailing_zeros() as usize],
            self.repeat,
        );
        let bytes = (n * 4) as f64;
        let copy_s = copy.map_or(String::from("-"), |b| {
            let t = time_copy(ctx, b, self.repeat);
            format!("{t:.1} us ({:.0} GB/s r+w)", 2.0 * bytes / t / 1e3)
        });
        println!(
            "{label:<44} n=2^{:<2} sum gpu {gpu:>8.1} us {:>7.0} GB/s  copy {copy_s}  {}",
            n.trailing_zeros(),
            bytes / gpu / 1e3,
            if ok { "ok" } else { "WRONG" }
        );
    }

    fn slice(&self, log2: u32) -> &[f32] {
        &self.data[..1 << log2]
    }
}

fn main() -> ExitCode {
    let Some(args) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let Some(ctx) = support::open_context(Default::default()) else {
        return ExitCode::from(2);
    };
    let seed = support::seed();
    println!(
        "seed: {seed} | repeat: {} | sums per submission: {K}",
        args.repeat
    );
    let big = args.max_log2;
    let mid = big - 2;
    let mut rng = StdRng::seed_from_u64(seed);
    let data: Vec<f32> = (0..1usize << big)
        .map(|_| rng.gen_range(-1.0f32..1.0))
        .collect();
    // Sums (and sums of magnitudes) of the first 2^k elements, in f64.
    let mut prefix = vec![(0f64, 0f64); big as usize + 1];
    let mut acc = (0f64, 0f64);
    for (i, v) in data.iter().enumerate() {
        acc.0 += *v as f64;
        acc.1 += v.abs() as f64;
        let next = i + 1;
        if next.is_power_of_two() {
            prefix[next.trailing_zeros() as usize] = acc;
        }
    }
    let r = Report {
        data: &data,
        prefix: &prefix,
        repeat: args.repeat,
    };
    let up = |log2: u32| ctx.upload(r.slice(log2)).expect("upload");

    let a = up(mid);
    r.row(&ctx, "1 upload (first array)", &a, Some(a.buffer()));
    let b = up(big);
    r.row(&ctx, "2 upload", &b, Some(b.buffer()));
    r.row(&ctx, "3 array of step 1 again", &a, None);
    let c = up(mid);
    r.row(&ctx, "4 upload after the large one", &c, None);

    let d_buf = storage_buffer(&ctx, (4usize << big) as u64, true);
    d_buf
        .slice(..)
        .get_mapped_range_mut()
        .expect("mapped at creation")
        .copy_from_slice(bytemuck::cast_slice(r.slice(big)));
    d_buf.unmap();
    let d = GpuArray::<f32>::from_buffer(&ctx, d_buf, &[1 << big]).expect("wrap");
    r.row(&ctx, "5 mapped at creation", &d, None);

    let e_buf = storage_buffer(&ctx, (4usize << big) as u64, false);
    let mut enc = ctx.device().create_command_encoder(&Default::default());
    enc.copy_buffer_to_buffer(b.buffer(), 0, &e_buf, 0, e_buf.size());
    ctx.queue().submit([enc.finish()]);
    let e = GpuArray::<f32>::from_buffer(&ctx, e_buf, &[1 << big]).expect("wrap");
    r.row(&ctx, "6 GPU copy of step 2's array", &e, None);

    let f_buf = ctx
        .device()
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("placement init"),
            contents: bytemuck::cast_slice(r.slice(mid)),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        });
    let f = GpuArray::<f32>::from_buffer(&ctx, f_buf, &[1 << mid]).expect("wrap");
    r.row(&ctx, "7 create_buffer_init", &f, None);

    drop((b, d, e, c, f));
    ctx.trim_pool();
    let g = up(big);
    r.row(&ctx, "8 upload after dropping the large ones", &g, None);
    r.row(&ctx, "9 array of step 1 again", &a, None);
    drop((a, g));
    ctx.trim_pool();

    for max_workgroups in [1024u32, 264, 4096] {
        let other = Context::with_options(ContextOptions {
            max_workgroups,
            ..Default::default()
        })
        .expect("second context");
        let x = other.upload(r.slice(big)).expect("upload");
        r.row(
            &other,
            &format!("10 new device, max_workgroups {max_workgroups}"),
            &x,
            None,
        );
        let y = other.upload(r.slice(mid)).expect("upload");
        r.row(&other, "   ... then a smaller upload there", &y, None);
        r.row(&other, "   ... the large one again", &x, None);
    }
    ExitCode::SUCCESS
}
