//! What the `sum` and `scan` examples share: element values as f64, medians, the seed, the
//! adapter line and the CSV file.

// Each example uses the parts it needs.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use half::{bf16, f16};
use rand::Rng;
use wgpu_reduce::{Context, Element};

/// Element types as f64 (the reference's view of them).
pub trait AsF64: Element {
    fn as_f64(self) -> f64;
}
macro_rules! as_f64 {
    ($($t:ty),*) => {$(impl AsF64 for $t { fn as_f64(self) -> f64 { f64::from(self) } })*};
}
as_f64!(f32, i32, u32, f16, bf16);

pub fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// WGPU_REDUCE_SEED, or a fresh random seed.
pub fn seed() -> u64 {
    std::env::var("WGPU_REDUCE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().gen())
}

/// A context with `options`, its adapter line printed; or `None` after printing why there is
/// none (the caller exits with status 2).
pub fn open_context(options: wgpu_reduce::ContextOptions) -> Option<Context> {
    match Context::with_options(options) {
        Ok(ctx) => {
            print_adapter(&ctx);
            Some(ctx)
        }
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

/// Prints the adapter, backend, driver, features and tuning.
pub fn print_adapter(ctx: &Context) {
    let caps = ctx.capabilities();
    println!(
        "adapter: {} | backend: {:?} | driver: {} {} | subgroups: {} | timestamps: {} | tuning: {:?} \
         | max binding {} B, max buffer {} B",
        caps.adapter.name,
        caps.adapter.backend,
        caps.adapter.driver,
        caps.adapter.driver_info,
        caps.subgroups,
        caps.timestamps,
        ctx.tuning(),
        caps.limits.max_storage_buffer_binding_size,
        caps.limits.max_buffer_size
    );
}

/// Appends `line` to the file at `path`, or says why it could not.
pub fn append_line(path: &str, line: &str) -> Result<(), String> {
    use std::io::Write;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path);
    file.and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(|e| format!("{path}: {e}"))
}

/// `path` opened for appending, if given.
pub fn open_csv(path: Option<&String>) -> Option<std::io::Result<std::fs::File>> {
    path.map(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
    })
}

/// The parsed arguments, or `None` after printing why they could not be parsed (the caller
/// exits with status 2).
pub fn parsed<A>(args: Result<A, String>) -> Option<A> {
    args.map_err(|e| eprintln!("{e}")).ok()
}

/// How long each measured case keeps the GPU busy before it is timed.
///
/// NVIDIA's driver lowers the H200's SM clock to its idle 345 MHz about a second after the GPU
/// goes idle and raises it (to 1980 MHz) only under sustained load. A case timed right after
/// host work (drawing random data, the f64 reference) would run at idle clocks, and a 1 GiB
/// sum then reads at 1.8 instead of 4.3 TB/s. The peer scripts warm up the same way.
/// `WGPU_REDUCE_WARM_MS` overrides it.
pub fn warm_up_time() -> Duration {
    let ms = std::env::var("WGPU_REDUCE_WARM_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    Duration::from_millis(ms)
}

/// Runs `f` again and again for [`warm_up_time`] (at least once).
pub fn warm_up<E>(mut f: impl FnMut() -> Result<(), E>) -> Result<(), E> {
    let start = Instant::now();
    let warm = warm_up_time();
    loop {
        f()?;
        if start.elapsed() >= warm {
            return Ok(());
        }
    }
}

/// A spinner on stderr that shows what a long step of `what` is doing (hidden when stderr is
/// not a terminal).
pub fn spinner(what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new_spinner().with_prefix(what.to_string());
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} {prefix}: {msg} ({elapsed})")
    {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// One figure of an operation: medians of its GPU time and its wall time.
pub struct Figure {
    /// GPU time of one operation (timestamps around a batch, divided by its length), where the
    /// device has timestamps.
    pub gpu: Option<Duration>,
    /// Wall time of a batch (record, submit, wait) divided by its length.
    pub wall: Duration,
}

/// Times `record` (one operation) in batches of `batch` recorded into one submission each:
/// warm-up, then `repeat` batches without timestamps (wall time) and `repeat` with them (GPU
/// time); the medians.
pub fn time_batches(
    ctx: &Context,
    batch: usize,
    repeat: usize,
    record: &dyn Fn(&mut wgpu_reduce::Recorder) -> wgpu_reduce::Result<()>,
) -> wgpu_reduce::Result<Figure> {
    let run = |timestamps: bool| -> wgpu_reduce::Result<(Duration, Option<Duration>)> {
        let start = std::time::Instant::now();
        let mut rec = ctx.recorder();
        if timestamps {
            rec.enable_timestamps();
        }
        for _ in 0..batch {
            record(&mut rec)?;
        }
        let res = rec.submit()?.wait()?;
        Ok((
            start.elapsed() / batch as u32,
            res.gpu_time().map(|g| g / batch as u32),
        ))
    };
    warm_up(|| run(false).map(drop))?;
    let (mut walls, mut gpus) = (Vec::new(), Vec::new());
    for _ in 0..repeat {
        walls.push(run(false)?.0);
        gpus.extend(run(true)?.1);
    }
    Ok(Figure {
        wall: median(&mut walls),
        gpu: (!gpus.is_empty()).then(|| median(&mut gpus)),
    })
}
