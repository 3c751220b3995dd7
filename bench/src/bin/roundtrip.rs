//! Host to host: upload an f32 array, sum it, read the sum back, for each way of uploading, in
//! one process: `off` (`Queue::write_buffer`: the data is copied into a staging buffer, then by
//! the GPU into the array), `auto` (the library's choice: on adapters that share memory with the
//! CPU, such as lavapipe and integrated GPUs, a buffer mapped at creation that the data is
//! written into in place; elsewhere as `off`), and `on` (mapped at creation wherever wgpu allows
//! it). Each sum is checked against the f64 sum of the data. Then the array itself is read
//! back twice: by `Context::read` (always through a staging copy) and by
//! `Context::read_into_vec`, which takes the array and, where memory is shared, maps the
//! array's own buffer; both are checked element by element. The medians are printed.
//!
//!     cargo run --release -p wgpu-reduce-bench --bin roundtrip -- --n 67108864 --repeat 9
//!
//! Options:
//!   --n N          elements (default 67108864 = 2^26)
//!   --repeat R     runs per setting, after one warm-up run (default 9)
//!   --modes LIST   off,auto,on (default: all three)
//!   --csv PATH     append one line per setting

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu_reduce::{Context, ContextOptions};

const USAGE: &str = "usage: roundtrip [--n N] [--repeat R] [--modes off,auto,on] [--csv PATH]";

struct Args {
    n: usize,
    repeat: usize,
    modes: Vec<String>,
    csv: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        n: 1 << 26,
        repeat: 9,
        modes: vec!["off".into(), "auto".into(), "on".into()],
        csv: None,
    };
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("n") => a.n = count(&mut p, &flag)?.max(1),
            Long("repeat") => a.repeat = count(&mut p, &flag)?.max(1),
            Long("modes") => {
                a.modes = list(&mut p, &flag, "settings")?;
                if let Some(m) = a
                    .modes
                    .iter()
                    .find(|m| !["off", "auto", "on"].contains(&m.as_str()))
                {
                    return Err(format!(
                        "{flag}: unknown setting {m:?}; allowed: off, auto, on"
                    ));
                }
            }
            Long("csv") => a.csv = Some(text(&mut p, &flag)?),
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("roundtrip.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    let Some(a) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let seed = support::seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let data: Vec<f32> = (0..a.n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
    let exact: f64 = data.iter().map(|&v| f64::from(v)).sum();
    let sum_abs: f64 = data.iter().map(|&v| f64::from(v).abs()).sum();
    println!(
        "seed {seed}; {} f32 ({} MiB); medians of {} runs",
        a.n,
        (a.n * 4) >> 20,
        a.repeat
    );
    println!(
        "{:<6} {:>8} {:>12} {:>12} {:>12} {:>10} {:>10} {:>14}",
        "mode", "direct", "upload ms", "sum ms", "total ms", "GB/s up", "read ms", "read_into ms"
    );
    for mode in &a.modes {
        let options = ContextOptions {
            unified_memory: match mode.as_str() {
                "off" => Some(false),
                "on" => Some(true),
                _ => None,
            },
            ..Default::default()
        };
        let ctx = match Context::with_options(options) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("roundtrip: {e}");
                return ExitCode::from(2);
            }
        };
        if mode == &a.modes[0] {
            support::print_adapter(&ctx);
        }
        let bound = ctx.tuning().f32_sum_error_bound(a.n, sum_abs);
        let (mut up, mut sum, mut total) = (Vec::new(), Vec::new(), Vec::new());
        let (mut read_copy, mut read_taken) = (Vec::new(), Vec::new());
        for i in 0..=a.repeat {
            let t0 = Instant::now();
            let r = ctx.upload(&data).and_then(|x| {
                let t1 = Instant::now();
                let s = ctx.sum(&x)?;
                Ok((t1, s))
            });
            let (t1, s) = match r {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("roundtrip: {mode}: {e}");
                    return ExitCode::from(2);
                }
            };
            let t2 = Instant::now();
            if (f64::from(s) - exact).abs() > bound {
                eprintln!("roundtrip: {mode}: sum {s}, expected {exact} within {bound:.3e}");
                return ExitCode::FAILURE;
            }
            // Two arrays, both uploaded before either read; the reads take turns at going
            // first, so that neither gains from coming second.
            let reads = (|| {
                let (x, y) = (ctx.upload(&data)?, ctx.upload(&data)?);
                // Wait for the uploads to land (with `off`, their copies run at the next
                // submission), so that neither read pays for them.
                ctx.recorder().submit()?.wait()?;
                let timed = |f: &mut dyn FnMut() -> wgpu_reduce::Result<Vec<f32>>| {
                    let t = Instant::now();
                    let v = f()?;
                    Ok::<_, wgpu_reduce::Error>((t.elapsed(), v == data))
                };
                let mut copy = || ctx.read(&x);
                let mut y = Some(y);
                let mut taken = || ctx.read_into_vec(y.take().expect("read once"));
                let (c, t) = if i % 2 == 0 {
                    let c = timed(&mut copy)?;
                    (c, timed(&mut taken)?)
                } else {
                    let t = timed(&mut taken)?;
                    (timed(&mut copy)?, t)
                };
                Ok::<_, wgpu_reduce::Error>((c.0, t.0, c.1 && t.1))
            })();
            let (rc, rt) = match reads {
                Ok((rc, rt, true)) => (rc, rt),
                Ok(_) => {
                    eprintln!("roundtrip: {mode}: an array read back differs from the data");
                    return ExitCode::FAILURE;
                }
                Err(e) => {
                    eprintln!("roundtrip: {mode}: {e}");
                    return ExitCode::from(2);
                }
            };
            if i > 0 {
                up.push(t1 - t0);
                sum.push(t2 - t1);
                total.push(t2 - t0);
                read_copy.push(rc);
                read_taken.push(rt);
            }
        }
        let ms = |v: &mut Vec<Duration>| support::median(v).as_secs_f64() * 1e3;
        let (u, s, t) = (ms(&mut up), ms(&mut sum), ms(&mut total));
        let (rc, rt) = (ms(&mut read_copy), ms(&mut read_taken));
        let gbs = (a.n * 4) as f64 / (u * 1e-3) / 1e9;
        let direct = ctx.capabilities().unified_memory;
        println!(
            "{mode:<6} {direct:>8} {u:>12.2} {s:>12.2} {t:>12.2} {gbs:>10.2} {rc:>10.2} {rt:>14.2}"
        );
        if let Some(path) = &a.csv {
            let line = format!(
                "{mode},{direct},{},{u:.3},{s:.3},{t:.3},{rc:.3},{rt:.3}\n",
                a.n
            );
            if let Err(e) = support::append_line(path, &line) {
                eprintln!("roundtrip: {e}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
