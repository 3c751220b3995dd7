//! Time to the first result: each operation family in a fresh process, from `Context::new()`
//! to the value back on the host, then the same call again. The first call compiles the
//! kernels it needs (WGSL to the backend's code, then the driver's compiler); later processes
//! may find them in a cache. Four settings are measured for each family, each in new processes:
//!
//! - `cold`: no cache at all (the driver's on-disk shader cache is turned off for the process:
//!   `MESA_SHADER_CACHE_DISABLE`, `__GL_SHADER_DISK_CACHE`), as on a machine's first run;
//! - `driver`: the driver's own on-disk cache, filled by an earlier process (the usual case on
//!   a second run, where the driver keeps one);
//! - `pipeline`: the driver's cache off, the library's pipeline cache (`ContextOptions::
//!   pipeline_cache_dir`) filled by an earlier process;
//! - `prepare`: cold, but `Context::prepare` compiles the family's kernels (on several threads)
//!   before the first call; its time is reported apart.
//!
//!     cargo run --release -p wgpu-reduce-bench --bin first_call -- --runs 3
//!
//! Options:
//!   --families LIST  sum,max,argmax,sum_axis0,mean_axis1,cumsum,all (default: all of them;
//!                    `all` runs every other family in one process)
//!   --modes LIST     cold,driver,pipeline,prepare (default: all four)
//!   --runs R         processes per family and setting, after the one that fills a cache
//!                    (default 3; the median is printed)
//!   --n N            elements of the arrays (default 1048576; matrices are sqrt(N) square)
//!   --csv PATH       append one line per family and setting

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;

use std::process::{Command, ExitCode};
use std::time::Instant;

use wgpu_reduce::{Context, ContextOptions, DType, Prepare, ReduceOp, ScanOp};

const USAGE: &str =
    "usage: first_call [--families LIST] [--modes LIST] [--runs R] [--n N] [--csv PATH]";
const FAMILIES: [&str; 7] = [
    "sum",
    "max",
    "argmax",
    "sum_axis0",
    "mean_axis1",
    "cumsum",
    "all",
];
const MODES: [&str; 4] = ["cold", "driver", "pipeline", "prepare"];

struct Args {
    families: Vec<String>,
    modes: Vec<String>,
    runs: usize,
    n: usize,
    csv: Option<String>,
    child: Option<(String, bool)>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        families: FAMILIES.iter().map(|s| s.to_string()).collect(),
        modes: MODES.iter().map(|s| s.to_string()).collect(),
        runs: 3,
        n: 1 << 20,
        csv: None,
        child: None,
    };
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("families") => {
                a.families = list(&mut p, &flag, "family names")?;
                if let Some(f) = a.families.iter().find(|f| !FAMILIES.contains(&f.as_str())) {
                    return Err(format!(
                        "{flag}: unknown family {f:?}; allowed: {}",
                        FAMILIES.join(", ")
                    ));
                }
            }
            Long("modes") => {
                a.modes = list(&mut p, &flag, "settings")?;
                if let Some(m) = a.modes.iter().find(|m| !MODES.contains(&m.as_str())) {
                    return Err(format!(
                        "{flag}: unknown setting {m:?}; allowed: {}",
                        MODES.join(", ")
                    ));
                }
            }
            Long("runs") => a.runs = count(&mut p, &flag)?.max(1),
            Long("n") => a.n = count(&mut p, &flag)?.max(16),
            Long("csv") => a.csv = Some(text(&mut p, &flag)?),
            Long("child") => {
                let v: Vec<String> = list(&mut p, &flag, "FAMILY,PREPARE")?;
                let [f, prep] = &v[..] else {
                    return Err(format!("{flag} takes FAMILY,PREPARE"));
                };
                a.child = Some((f.clone(), prep == "1"));
            }
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("first_call.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(a)
}

/// What a family's kernels are, for `Context::prepare`.
fn prepares(family: &str) -> Vec<Prepare> {
    let f32 = DType::F32;
    match family {
        "sum" | "sum_axis0" => vec![Prepare::reduce(ReduceOp::Sum, f32)],
        "max" => vec![Prepare::reduce(ReduceOp::Max, f32)],
        "argmax" => vec![Prepare::reduce(ReduceOp::Argmax, f32)],
        "mean_axis1" => vec![Prepare::reduce(ReduceOp::Mean, f32)],
        "cumsum" => vec![Prepare::scan(ScanOp::Add, f32)],
        _ => FAMILIES[..6].iter().flat_map(|f| prepares(f)).collect(),
    }
}

/// One call of `family`, its result back on the host (a checksum of it).
fn call(
    ctx: &Context,
    family: &str,
    x: &wgpu_reduce::GpuArray<f32>,
    m: &wgpu_reduce::GpuArray<f32>,
) -> wgpu_reduce::Result<f64> {
    Ok(match family {
        "sum" => f64::from(ctx.run(|rec| rec.sum(x, .., false)).map(|v| v[0])?),
        "max" => f64::from(ctx.run(|rec| rec.max(x, .., false)).map(|v| v[0])?),
        "argmax" => f64::from(ctx.run(|rec| rec.argmax(x, .., false)).map(|v| v[0])?),
        "sum_axis0" => ctx
            .run(|rec| rec.sum(m, 0, false))?
            .iter()
            .map(|&v| f64::from(v))
            .sum(),
        "mean_axis1" => ctx
            .run(|rec| rec.mean(m, 1, false))?
            .iter()
            .map(|&v| f64::from(v))
            .sum(),
        "cumsum" => f64::from(*ctx.run(|rec| rec.cumsum(x))?.last().unwrap_or(&0.0)),
        _ => {
            let mut acc = 0.0;
            for f in &FAMILIES[..6] {
                acc += call(ctx, f, x, m)?;
            }
            acc
        }
    })
}

/// In the child process: times one family and prints one `RESULT` line.
fn child(family: &str, prepare: bool, n: usize) -> wgpu_reduce::Result<()> {
    let t0 = Instant::now();
    let ctx = Context::new()?;
    let ctx_ms = t0.elapsed().as_secs_f64() * 1e3;
    let side = (n as f64).sqrt() as usize;
    let data: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1000) as f32 * 1e-3).collect();
    let x = ctx.upload(&data)?;
    let m = ctx.upload_shaped(&data[..side * side], &[side, side])?;
    let _ = ctx.read(&x)?; // the uploads done, before any kernel
    let t1 = Instant::now();
    let prepared = if prepare {
        ctx.prepare(&prepares(family))?
    } else {
        0
    };
    let prepare_ms = t1.elapsed().as_secs_f64() * 1e3;
    let before = ctx.stats().pipelines_compiled;
    let t2 = Instant::now();
    let v1 = call(&ctx, family, &x, &m)?;
    let first_ms = t2.elapsed().as_secs_f64() * 1e3;
    let compiled = ctx.stats().pipelines_compiled - before;
    let t3 = Instant::now();
    let v2 = call(&ctx, family, &x, &m)?;
    let second_ms = t3.elapsed().as_secs_f64() * 1e3;
    // Float scans by the look-back may add in another order each time: agree to f32 rounding.
    if (v1 - v2).abs() > 1e-5 * v1.abs().max(1.0) {
        eprintln!("first_call: {family}: the second call gave {v2}, the first {v1}");
        std::process::exit(1);
    }
    println!(
        "RESULT ctx_ms={ctx_ms:.2} prepare_ms={prepare_ms:.2} prepared={prepared} first_ms={first_ms:.3} \
         compiled={compiled} second_ms={second_ms:.3} cache={}",
        ctx.has_pipeline_cache()
    );
    Ok(())
}

#[derive(Default, Clone)]
struct Sample {
    ctx_ms: f64,
    prepare_ms: f64,
    first_ms: f64,
    second_ms: f64,
    compiled: f64,
}

/// Runs one child process of `family` under `mode`; `cache_dir` is the pipeline cache's.
fn run_child(
    family: &str,
    mode: &str,
    n: usize,
    cache_dir: &std::path::Path,
) -> Result<Sample, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(exe);
    let prepare = if mode == "prepare" { "1" } else { "0" };
    cmd.args([
        "--child",
        &format!("{family},{prepare}"),
        "--n",
        &n.to_string(),
    ]);
    cmd.env_remove("WGPU_REDUCE_PIPELINE_CACHE");
    if mode != "driver" {
        cmd.env("MESA_SHADER_CACHE_DISABLE", "true")
            .env("__GL_SHADER_DISK_CACHE", "0");
    }
    if mode == "pipeline" {
        cmd.env("WGPU_REDUCE_PIPELINE_CACHE", cache_dir);
    }
    let out = cmd.output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(line) = text.lines().find(|l| l.starts_with("RESULT ")) else {
        return Err(format!(
            "{family} ({mode}): no result (exit {:?}): {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    };
    let get = |k: &str| -> f64 {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{k}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or(f64::NAN)
    };
    if mode == "pipeline" && !line.contains("cache=true") {
        return Err(format!("{family}: this adapter has no pipeline cache"));
    }
    Ok(Sample {
        ctx_ms: get("ctx_ms"),
        prepare_ms: get("prepare_ms"),
        first_ms: get("first_ms"),
        second_ms: get("second_ms"),
        compiled: get("compiled"),
    })
}

fn median_of(v: &[Sample], f: impl Fn(&Sample) -> f64) -> f64 {
    let mut x: Vec<f64> = v.iter().map(f).collect();
    x.sort_by(f64::total_cmp);
    x[x.len() / 2]
}

fn main() -> ExitCode {
    let Some(a) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    if let Some((family, prepare)) = &a.child {
        return match child(family, *prepare, a.n) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("first_call: {e}");
                ExitCode::from(2)
            }
        };
    }
    match Context::with_options(ContextOptions::default()) {
        Ok(ctx) => support::print_adapter(&ctx),
        Err(e) => {
            eprintln!("first_call: {e}");
            return ExitCode::from(2);
        }
    }
    let cache_dir =
        std::env::temp_dir().join(format!("wgpu-reduce-first-call-{}", std::process::id()));
    println!(
        "{:<11} {:<8} {:>8} {:>10} {:>10} {:>9} {:>10}  (ms, medians of {} processes)",
        "family", "setting", "context", "prepare", "first", "kernels", "second", a.runs
    );
    let mut failed = false;
    for family in &a.families {
        for mode in &a.modes {
            let _ = std::fs::remove_dir_all(&cache_dir);
            let mut samples = Vec::new();
            // A process that fills the cache the setting reads (driver's, or ours).
            let fill = matches!(mode.as_str(), "driver" | "pipeline");
            let mut err = None;
            for i in 0..a.runs + usize::from(fill) {
                match run_child(family, mode, a.n, &cache_dir) {
                    Ok(s) if !(fill && i == 0) => samples.push(s),
                    Ok(_) => {}
                    Err(e) => {
                        err = Some(e);
                        break;
                    }
                }
            }
            if let Some(e) = err {
                println!("{family:<11} {mode:<8} {e}");
                failed |= mode != "pipeline";
                continue;
            }
            let (c, p, f, k, s) = (
                median_of(&samples, |s| s.ctx_ms),
                median_of(&samples, |s| s.prepare_ms),
                median_of(&samples, |s| s.first_ms),
                median_of(&samples, |s| s.compiled),
                median_of(&samples, |s| s.second_ms),
            );
            println!("{family:<11} {mode:<8} {c:>8.1} {p:>10.1} {f:>10.2} {k:>9} {s:>10.3}");
            if let Some(path) = &a.csv {
                let line = format!("{family},{mode},{},{c:.3},{p:.3},{f:.4},{k},{s:.4}\n", a.n);
                if let Err(e) = support::append_line(path, &line) {
                    eprintln!("first_call: {e}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&cache_dir);
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
