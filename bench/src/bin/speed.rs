//! Our reductions against a peer, side by side (in the spirit of tinygrad's test_speed_v_torch):
//! for each line of a suite (operation, element type, shape, axes, batch) it measures ours —
//! GPU time of one reduction (timestamp queries), wall time of one call host to host (data
//! already on the GPU, value back on the host: the latency), and `batch` reductions in one
//! submission ÷ batch (the throughput) — checks every result against the f64 reference, and
//! prints them next to the peer's figures read from a CSV that `benches/torch_peer.py --suite`
//! wrote for the same suite in the same run, with the ratios.
//!
//!     python3 benches/torch_peer.py --suite benches/speed_suite.txt --csv peer.csv
//!     cargo run --release -p wgpu-reduce-bench --bin speed -- --peer peer.csv --csv speed.csv
//!
//! Options:
//!   --suite PATH   the suite (default benches/speed_suite.txt)
//!   --peer PATH    the peer's CSV (torch_peer.py's columns); without it only ours is printed
//!   --only N,..    only the suite's lines of these element counts (e.g. 1024,65536)
//!   --repeat R     timed runs per figure, after a warm-up (default 30); medians are printed
//!   --csv PATH     append one line per reduction: ours and the peer's figures and the ratios
//!                  (the peer's graph figure and its ratio last)
//!   --max-workgroups N   Tuning::max_workgroups (default: the library's default)
//!   --two-pass-flat      the whole-array reductions of f32 that take the flat first pass in
//!                  two passes (Tuning::reduce_last_group_flat false; default: one)
//!
//! Columns: `gpu` one reduction's GPU time; `wall` one call host to host; `batch` the
//! throughput time per reduction (GPU time of the batch where timestamps exist); GB/s = bytes
//! read / batch time; `x thr` = peer batch / our batch (above 1: ours is faster); `x lat` =
//! our wall / peer latency (below 1: ours answers sooner); `graph` the peer's batch replayed
//! from a CUDA graph (its GPU time without Python's launch rate) and `x gr` = that / our
//! batch. Exits with status 1 if any result is wrong, 2 on bad arguments or GPU errors.

use wgpu_reduce_bench::{args, bench, support};

use std::collections::HashMap;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use args::*;
use bench::{gbps, shape_row, Case};
use rand::rngs::StdRng;
use rand::SeedableRng;
use wgpu_reduce::{Axes, DType, ReduceOp, Reduction};

/// One line of the suite.
struct Entry {
    op: ReduceOp,
    dtype: DType,
    shape: Vec<usize>,
    /// As in the CSVs: `all`, or axes joined by `;`.
    axes: String,
    batch: usize,
}

impl Entry {
    fn shape_s(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(|d| d.to_string()).collect();
        dims.join("x")
    }
}

fn parse_suite(text: &str) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = |what: &str| format!("suite line {}: {what}: {line:?}", i + 1);
        if f.len() != 5 {
            return Err(bad("expected: op dtype shape axes batch"));
        }
        let shape = f[2]
            .split('x')
            .map(|d| d.parse::<usize>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| bad("bad shape"))?;
        if f[3] != "all" && f[3].split(';').any(|a| a.parse::<i32>().is_err()) {
            return Err(bad("axes must be all or numbers joined by ;"));
        }
        out.push(Entry {
            op: f[0]
                .parse()
                .map_err(|e: wgpu_reduce::Error| bad(&e.to_string()))?,
            dtype: f[1]
                .parse()
                .map_err(|e: wgpu_reduce::Error| bad(&e.to_string()))?,
            shape,
            axes: f[3].to_string(),
            batch: f[4].parse().map_err(|_| bad("bad batch"))?,
        });
    }
    Ok(out)
}

/// The peer's figures of one reduction (µs): latency, GPU time, batch time per reduction.
#[derive(Clone, Copy)]
struct Peer {
    latency: f64,
    gpu: f64,
    batch: f64,
    /// Absent where the CSV has no graph column or the capture failed (NaN).
    graph: Option<f64>,
}

/// torch_peer.py's CSV: source,op,dtype,n,latency,gpu,batch,batch,copy GB/s,shape,axes[,graph].
fn read_peer(text: &str) -> HashMap<(String, String, String, String), Peer> {
    let mut map = HashMap::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 11 {
            continue;
        }
        let num = |i: usize| f[i].parse::<f64>().unwrap_or(f64::NAN);
        let key = (f[1].into(), f[2].into(), f[9].into(), f[10].into());
        map.insert(
            key,
            Peer {
                latency: num(4),
                gpu: num(5),
                batch: num(6),
                graph: f
                    .get(11)
                    .and_then(|v| v.parse::<f64>().ok())
                    .filter(|g| g.is_finite()),
            },
        );
    }
    map
}

struct Args {
    suite: String,
    peer: Option<String>,
    only: Option<Vec<usize>>,
    repeat: usize,
    csv: Option<String>,
    max_workgroups: Option<u32>,
    two_pass_flat: bool,
}

const USAGE: &str =
    "usage: speed [--suite PATH] [--peer PATH] [--only N,..] [--repeat R] [--csv PATH] \
[--max-workgroups N] [--two-pass-flat]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        suite: "benches/speed_suite.txt".into(),
        peer: None,
        only: None,
        repeat: 30,
        csv: None,
        max_workgroups: None,
        two_pass_flat: false,
    };
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("suite") => args.suite = text(&mut p, &flag)?,
            Long("peer") => args.peer = Some(text(&mut p, &flag)?),
            Long("csv") => args.csv = Some(text(&mut p, &flag)?),
            Long("only") => args.only = Some(sizes(&mut p, &flag)?),
            Long("repeat") => args.repeat = count(&mut p, &flag)?,
            Long("max-workgroups") => {
                let n = count(&mut p, &flag)?;
                args.max_workgroups = Some(u32::try_from(n).map_err(|e| format!("{flag}: {e}"))?);
            }
            Long("two-pass-flat") => args.two_pass_flat = true,
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("speed.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    env_logger::init();
    let Some(args) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let suite = match std::fs::read_to_string(&args.suite)
        .map_err(|e| format!("{}: {e}", args.suite))
        .and_then(|t| parse_suite(&t))
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let peer = match &args.peer {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => read_peer(&t),
            Err(e) => {
                eprintln!("{p}: {e}");
                return ExitCode::from(2);
            }
        },
        None => HashMap::new(),
    };
    let mut options = wgpu_reduce::ContextOptions::default();
    let mut tuning = wgpu_reduce::Tuning::default();
    if let Some(n) = args.max_workgroups {
        tuning.max_workgroups = n;
    }
    tuning.reduce_last_group_flat = !args.two_pass_flat;
    options.tuning = Some(tuning);
    let Some(ctx) = support::open_context(options) else {
        return ExitCode::from(2);
    };
    let seed = support::seed();
    println!(
        "repeat: {} | seed: {seed} | peer: {}",
        args.repeat,
        args.peer.as_deref().unwrap_or("none")
    );
    println!(
        "{:<7} {:<5} {:>10} {:>4} {:>4} | {:>9} {:>9} {:>9} {:>7} | {:>9} {:>9} {:>9} {:>7} {:>9} | {:>6} {:>6} {:>6}  ok",
        "op", "dtype", "shape", "axes", "K", "gpu us", "wall us", "batch us", "GB/s", "gpu us",
        "lat us", "batch us", "GB/s", "graph us", "x thr", "x lat", "x gr"
    );
    let mut csv = support::open_csv(args.csv.as_ref());
    let mut rng = StdRng::seed_from_u64(seed);
    let mut wrong = false;
    for e in &suite {
        let n: usize = e.shape.iter().product();
        if args.only.as_ref().is_some_and(|o| !o.contains(&n)) {
            continue;
        }
        let mut red = Reduction::new(e.op);
        if e.axes != "all" {
            red = red.axes(Axes::List(
                e.axes
                    .split(';')
                    .map(|a| a.parse().expect("checked"))
                    .collect(),
            ));
        }
        let case = Case {
            red,
            dtype: e.dtype,
            out: None,
            repeat: args.repeat,
            batch: e.batch,
        };
        let row = match shape_row(&ctx, &case, &e.shape, &mut rng, &|_| {}) {
            Ok(r) => r,
            Err(err) => {
                eprintln!(
                    "error at {} {} {}: {err}",
                    e.op.name(),
                    e.dtype,
                    e.shape_s()
                );
                return ExitCode::from(2);
            }
        };
        wrong |= !row.ok;
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let bytes = n * e.dtype.size_bytes();
        let batch = row.batch_gpu.unwrap_or(row.batch_wall);
        let p = peer
            .get(&(
                e.op.name().into(),
                e.dtype.to_string(),
                e.shape_s(),
                e.axes.clone(),
            ))
            .copied();
        let f = |v: Option<f64>, prec: usize| v.map_or("-".into(), |v| format!("{v:.prec$}"));
        let thr = p.map(|p| p.batch / us(batch));
        let lat = p.map(|p| us(row.wall) / p.latency);
        let graph = p.and_then(|p| p.graph);
        let x_graph = graph.map(|g| g / us(batch));
        println!(
            "{:<7} {:<5} {:>10} {:>4} {:>4} | {:>9} {:>9.1} {:>9.1} {:>7.0} | {:>9} {:>9} {:>9} {:>7} {:>9} | {:>6} {:>6} {:>6}  {}",
            e.op.name(),
            e.dtype.to_string(),
            e.shape_s(),
            e.axes,
            e.batch,
            f(row.gpu.map(us), 1),
            us(row.wall),
            us(batch),
            gbps(bytes, batch),
            f(p.map(|p| p.gpu), 1),
            f(p.map(|p| p.latency), 1),
            f(p.map(|p| p.batch), 1),
            f(p.map(|p| bytes as f64 / p.batch / 1e3), 0),
            f(graph, 1),
            f(thr, 2),
            f(lat, 2),
            f(x_graph, 2),
            if row.ok { "yes" } else { "WRONG" }
        );
        log::info!(
            "worst error / tolerance {:.3}; pool {:?}",
            row.worst,
            ctx.pool_stats()
        );
        if let Some(Ok(file)) = csv.as_mut() {
            let _ = writeln!(
                file,
                "{},{},{},{},{},{},{:.3},{:.3},{},{},{},{},{},{},{},{}",
                e.op.name(),
                e.dtype,
                e.shape_s(),
                e.axes,
                e.batch,
                f(row.gpu.map(us), 3),
                us(row.wall),
                us(batch),
                f(p.map(|p| p.gpu), 3),
                f(p.map(|p| p.latency), 3),
                f(p.map(|p| p.batch), 3),
                f(thr, 3),
                f(lat, 3),
                row.ok,
                f(graph, 3),
                f(x_graph, 3)
            );
        }
    }
    // What the pool keeps after the whole suite, against the most the work leased at once.
    let pool = ctx.pool_stats();
    println!(
        "pool after the suite: {} bytes held ({:.2}x the peak in use, {} bytes); high water {} \
         bytes; {} allocations, {} reuses",
        pool.bytes_held,
        pool.bytes_held as f64 / pool.peak_in_use_bytes.max(1) as f64,
        pool.peak_in_use_bytes,
        pool.high_water_bytes,
        pool.allocations,
        pool.reuses
    );
    if wrong {
        eprintln!("some results were WRONG");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
