//! Where the time of one blocking reduction goes, host to host: recording (recorder, kernels,
//! temporaries from the pool), `submit` (parameters uploaded, bind groups, one command buffer,
//! `Queue::submit`), and `wait` (the GPU's work, the readback copy, `map_async`, the polls),
//! each the median of many calls on data already on the GPU; then `wait` without a readback
//! (GPU and poll only), the GPU time of the pass (timestamps), so the remainder can be
//! attributed, and the one-liner with and without spinning before a blocking wait
//! (`ContextOptions::wait_spin`). The peer's figure is `x.sum().item()` from `benches/torch_peer.py`.
//! The floor is wgpu's own: an empty `Queue::submit` and a blocking `Device::poll` on the same
//! device, timed in the same process; the one-liner's ratio to it is printed, for the floors
//! timed in a row after the one-liners and for both timed in blocks that take turns. Last, the
//! one-liner with its result mapped and copied (`ContextOptions::mapped_results`), each beside
//! the floor on its own device.
//!
//!     cargo run --release -p wgpu-reduce-bench --bin latency -- --n 1048576 --repeat 200
//!
//! Options:
//!   --n N        elements summed (default 1048576)
//!   --repeat R   calls timed (default 200)

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use support::median;
use wgpu_reduce::Context;

const USAGE: &str = "usage: latency [--n N] [--repeat R]";

fn parse_args() -> Result<(usize, usize), String> {
    let (mut n, mut repeat) = (1usize << 20, 200usize);
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("n") => n = count(&mut p, &flag)?,
            Long("repeat") => repeat = count(&mut p, &flag)?,
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("latency.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok((n, repeat))
}

fn main() -> ExitCode {
    let Some((n, repeat)) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let run = || -> wgpu_reduce::Result<()> {
        let ctx = Context::new()?;
        support::print_adapter(&ctx);
        let data: Vec<f32> = (0..n).map(|i| ((i % 1000) as f32) * 1e-3).collect();
        let x = ctx.upload(&data)?;
        support::warm_up(|| ctx.sum(&x).map(drop))?;
        let (mut rec_t, mut sub_t, mut wait_t, mut total_t) = (vec![], vec![], vec![], vec![]);
        let (mut nowait_t, mut gpu_t, mut one_t) = (vec![], vec![], vec![]);
        for i in 0..repeat + 10 {
            let t0 = Instant::now();
            let mut rec = ctx.recorder();
            let s = rec.sum(&x)?;
            let tok = rec.read(&s)?;
            let t1 = Instant::now();
            let sub = rec.submit()?;
            let t2 = Instant::now();
            let v = sub.wait()?.scalar(&tok)?;
            let t3 = Instant::now();
            std::hint::black_box(v);
            // The same work without the readback: GPU, submission and the poll only.
            let mut rec = ctx.recorder();
            let _s = rec.sum(&x)?;
            let t4 = Instant::now();
            rec.submit()?.wait()?;
            let t5 = Instant::now();
            // GPU time of the pass.
            let mut rec = ctx.recorder();
            rec.enable_timestamps();
            let _s = rec.sum(&x)?;
            let g = rec.submit()?.wait()?.gpu_time();
            // The one-liner, as an application calls it.
            let t6 = Instant::now();
            std::hint::black_box(ctx.sum(&x)?);
            let t7 = Instant::now();
            if i >= 10 {
                rec_t.push(t1 - t0);
                sub_t.push(t2 - t1);
                wait_t.push(t3 - t2);
                total_t.push(t3 - t0);
                nowait_t.push(t5 - t4);
                gpu_t.extend(g);
                one_t.push(t7 - t6);
            }
        }
        let us = |v: &mut Vec<Duration>| {
            if v.is_empty() {
                "-".to_string()
            } else {
                format!("{:.1}", median(v).as_secs_f64() * 1e6)
            }
        };
        println!("n {n}, medians of {repeat} calls (us):");
        println!(
            "  record (recorder, sum, read token)      {}",
            us(&mut rec_t)
        );
        println!(
            "  submit                                  {}",
            us(&mut sub_t)
        );
        println!(
            "  wait (GPU, copy, map, polls)            {}",
            us(&mut wait_t)
        );
        println!(
            "  total, recorded call                    {}",
            us(&mut total_t)
        );
        println!(
            "  submit + wait without a readback        {}",
            us(&mut nowait_t)
        );
        println!(
            "  GPU time of the pass (timestamps)       {}",
            us(&mut gpu_t)
        );
        println!(
            "  ctx.sum(&x), the one-liner              {}",
            us(&mut one_t)
        );
        // The one-liner on a context that blocks in the driver at once (no spinning).
        let blocking = Context::with_options(wgpu_reduce::ContextOptions {
            wait_spin: Some(Duration::ZERO),
            ..Default::default()
        })?;
        let xb = blocking.upload(&data)?;
        support::warm_up(|| blocking.sum(&xb).map(drop))?;
        let mut block_t = Vec::new();
        for i in 0..repeat + 10 {
            let t = Instant::now();
            std::hint::black_box(blocking.sum(&xb)?);
            if i >= 10 {
                block_t.push(t.elapsed());
            }
        }
        println!(
            "  the one-liner with wait_spin = 0        {}",
            us(&mut block_t)
        );
        // wgpu alone: an empty submission and a blocking wait for it.
        let floor_call = |c: &Context| -> wgpu_reduce::Result<Duration> {
            let t = Instant::now();
            let index = c.queue().submit([]);
            c.device()
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(index),
                    timeout: None,
                })
                .map_err(|e| wgpu_reduce::Error::PollFailed(e.to_string()))?;
            Ok(t.elapsed())
        };
        let mut empty_t = Vec::new();
        for i in 0..repeat + 10 {
            let t = floor_call(&ctx)?;
            if i >= 10 {
                empty_t.push(t);
            }
        }
        let floor = median(&mut empty_t);
        println!(
            "  wgpu: empty submit + blocking poll      {:.1}",
            floor.as_secs_f64() * 1e6
        );
        println!(
            "  one-liner / that floor                  {:.2}",
            median(&mut one_t).as_secs_f64() / floor.as_secs_f64()
        );
        // The same two in blocks that take turns (one-liners, then floors in a row), so that
        // a drift of the host's speed within the process weighs on both alike; the first calls
        // of each block are left out.
        let block = repeat.div_ceil(10).max(5);
        let (mut ones, mut floors) = (Vec::new(), Vec::new());
        for _ in 0..10 {
            for i in 0..block + 3 {
                let t = Instant::now();
                std::hint::black_box(ctx.sum(&x)?);
                if i >= 3 {
                    ones.push(t.elapsed());
                }
            }
            for i in 0..block + 3 {
                let t = floor_call(&ctx)?;
                if i >= 3 {
                    floors.push(t);
                }
            }
        }
        let (one, fl) = (median(&mut ones), median(&mut floors));
        println!(
            "  in blocks that take turns: one-liner {:.1}, floor in a row {:.1}, ratio {:.2}",
            one.as_secs_f64() * 1e6,
            fl.as_secs_f64() * 1e6,
            one.as_secs_f64() / fl.as_secs_f64()
        );
        // The one-liner with its result mapped (no copy) and copied into a staging buffer
        // (ContextOptions::mapped_results, one context each), each beside wgpu's floor on its own
        // device, in blocks that take turns (a GPU switching between devices call by call is
        // slower for both), the first calls of each block after a switch left out.
        let mapped_on = ctx.capabilities().mapped_results;
        let other = Context::with_options(wgpu_reduce::ContextOptions {
            mapped_results: Some(!mapped_on),
            ..Default::default()
        })?;
        let xo = other.upload(&data)?;
        support::warm_up(|| other.sum(&xo).map(drop))?;
        // [context][one-liner, floor]
        let mut times: [[Vec<Duration>; 2]; 2] = Default::default();
        let block = repeat.div_ceil(10).max(5);
        for _ in 0..10 {
            for (k, (c, a)) in [(&ctx, &x), (&other, &xo)].into_iter().enumerate() {
                for i in 0..block + 3 {
                    let t = Instant::now();
                    std::hint::black_box(c.sum(a)?);
                    let one = t.elapsed();
                    let fl = floor_call(c)?;
                    if i >= 3 {
                        times[k][0].push(one);
                        times[k][1].push(fl);
                    }
                }
            }
        }
        if !other.capabilities().mapped_results && !mapped_on {
            println!("  (results cannot be mapped here: no MAPPABLE_PRIMARY_BUFFERS)");
        }
        let [a, b] = &mut times;
        let (mapped, copied) = if mapped_on { (a, b) } else { (b, a) };
        println!("  in turns, each beside its own floor (one-liner, floor, ratio):");
        for (name, t) in [
            ("result mapped (no copy)", mapped),
            ("result copied", copied),
        ] {
            let (one, fl) = (median(&mut t[0]), median(&mut t[1]));
            println!(
                "    {name:<24} {:>7.1} {:>7.1} {:>6.2}",
                one.as_secs_f64() * 1e6,
                fl.as_secs_f64() * 1e6,
                one.as_secs_f64() / fl.as_secs_f64()
            );
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
