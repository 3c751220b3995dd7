//! Measuring one reduction the way the `sum` and `speed` examples report it: GPU time of the
//! recorded passes (timestamps), wall time of one call host to host, and K reductions in one
//! submission divided by K; each the median of `repeat` runs after a warm-up, on random data,
//! with every result checked against the f64 reference.

use std::time::{Duration, Instant};

use half::{bf16, f16};
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::{Context, DType, GpuArray, ReduceOp, Reduction};

use crate::reference::{reference, round_to, tolerance, Data};
use crate::support::{median, AsF64};

/// What to measure: the reduction, the element type, the result type (None: PyTorch's
/// choice), and how many timed runs and reductions per batch.
pub struct Case {
    pub red: Reduction,
    pub dtype: DType,
    pub out: Option<DType>,
    pub repeat: usize,
    pub batch: usize,
}

/// Records `k` reductions of `x`, reads the last if `read`, and returns (values, wall, gpu);
/// GPU time only with `timestamps` (their query set and its copy lengthen the wall time, so
/// latency is timed without them).
///
/// Timed runs of reductions along axes do not read their (possibly large) result back: the
/// copy to the host would dominate the wall time and leave the GPU idle, at low clocks, between
/// runs. Whole-array runs read their one value, so their wall time is host to host.
pub fn run_once<T: AsF64, O: AsF64>(
    ctx: &Context,
    x: &GpuArray<T>,
    red: &Reduction,
    k: usize,
    read: bool,
    timestamps: bool,
) -> wgpu_reduce::Result<(Vec<f64>, Duration, Option<Duration>)> {
    let start = Instant::now();
    let mut rec = ctx.recorder();
    if timestamps {
        rec.enable_timestamps();
    }
    // Only the last result is read back (reading large results along axes would time the
    // copy to the host, not the reduction); the others stay alive on the GPU until the wait.
    // A dot product is of the array with itself (both inputs read), in the input type.
    let (mut keep, mut dots) = (Vec::with_capacity(k), Vec::new());
    for _ in 0..k {
        match red.op {
            ReduceOp::Dot => dots.push(rec.dot(x, x, red.axes.clone(), red.keepdim)?),
            _ => keep.push(rec.reduce::<T, O>(x, red)?),
        }
    }
    let token = match (read, keep.last(), dots.last()) {
        (true, Some(y), _) => Some((Some(rec.read(y)?), None)),
        (true, None, Some(d)) => Some((None, Some(rec.read(d)?))),
        _ => None,
    };
    let results = rec.submit()?.wait()?;
    let wall = start.elapsed();
    let values = match token {
        Some((Some(t), _)) => results.get(&t)?.into_iter().map(AsF64::as_f64).collect(),
        Some((_, Some(t))) => results.get(&t)?.into_iter().map(AsF64::as_f64).collect(),
        _ => Vec::new(),
    };
    Ok((values, wall, results.gpu_time()))
}

/// One measured shape.
pub struct Row {
    /// The first result element (printed by `sum`), and the worst error as a share of its
    /// tolerance.
    #[allow(dead_code)]
    pub first: f64,
    pub worst: f64,
    /// Every result element within its tolerance.
    pub ok: bool,
    /// One reduction: host to host (without timestamps), and GPU time (timestamps).
    pub wall: Duration,
    pub gpu: Option<Duration>,
    /// `batch` reductions in one submission, per reduction.
    pub batch_wall: Duration,
    pub batch_gpu: Option<Duration>,
}

/// Reports what a long step is doing (a progress bar's message, or nothing).
pub type Progress<'a> = &'a dyn Fn(&str);

pub fn measure<T: AsF64, O: AsF64>(
    ctx: &Context,
    case: &Case,
    x: &GpuArray<T>,
    data: &Data,
    progress: Progress,
) -> wgpu_reduce::Result<Row> {
    let red = &case.red;
    progress("computing the f64 reference on the CPU");
    let want = match red.op {
        ReduceOp::Dot => crate::reference::reference_dot(data, data, x.shape(), red),
        _ => reference(data, x.shape(), red),
    };
    progress("first run (compiles the kernels) and check");
    let (values, _, _) = run_once::<T, O>(ctx, x, red, 1, true, false)?; // warm-up: pipelines, pool
    let read = want.len() == 1;
    let (mut worst, mut ok) = (0f64, true);
    for (g, w) in values.iter().zip(&want) {
        let wr = round_to(O::DTYPE, w.value);
        let good = if w.value.is_nan() || wr.is_infinite() {
            (g.is_nan() && w.value.is_nan()) || *g == wr
        } else {
            let err = (g - w.value).abs();
            worst =
                worst.max(err / tolerance(red.op, T::DTYPE, O::DTYPE, w).max(f64::MIN_POSITIVE));
            err <= tolerance(red.op, T::DTYPE, O::DTYPE, w)
        };
        ok &= good;
    }
    ok &= values.len() == want.len();
    progress("warming up the GPU");
    let warm_up = || {
        crate::support::warm_up(|| run_once::<T, O>(ctx, x, red, case.batch, read, false).map(drop))
    };
    warm_up()?;
    let (mut walls, mut gpus) = (Vec::new(), Vec::new());
    for i in 0..case.repeat {
        progress(&format!(
            "timing one call, run {} of {}",
            i + 1,
            case.repeat
        ));
        let (_, _, gpu) = run_once::<T, O>(ctx, x, red, 1, read, true)?;
        gpus.extend(gpu);
        let (_, wall, _) = run_once::<T, O>(ctx, x, red, 1, read, false)?;
        walls.push(wall);
    }
    // The single calls leave the GPU idle between them, so its clock may have dropped: warm up
    // again before the batches.
    progress("warming up the GPU again");
    warm_up()?;
    let (mut bwalls, mut bgpus) = (Vec::new(), Vec::new());
    for i in 0..case.repeat {
        progress(&format!(
            "timing batches of {}, run {} of {}",
            case.batch,
            i + 1,
            case.repeat
        ));
        let (_, wall, gpu) = run_once::<T, O>(ctx, x, red, case.batch, read, true)?;
        bwalls.push(wall / case.batch as u32);
        bgpus.extend(gpu.map(|g| g / case.batch as u32));
    }
    Ok(Row {
        first: values.first().copied().unwrap_or(f64::NAN),
        worst,
        ok,
        wall: median(&mut walls),
        gpu: (!gpus.is_empty()).then(|| median(&mut gpus)),
        batch_wall: median(&mut bwalls),
        batch_gpu: (!bgpus.is_empty()).then(|| median(&mut bgpus)),
    })
}

pub fn draw(rng: &mut StdRng, op: ReduceOp) -> f64 {
    if op == ReduceOp::Prod {
        rng.gen_range(0.9999..1.0001)
    } else {
        rng.gen_range(-1.0..1.0)
    }
}

/// `n` values made by `f`, or an error if the host cannot hold them (instead of an abort).
pub fn try_vec<T>(n: usize, mut f: impl FnMut() -> T) -> wgpu_reduce::Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        wgpu_reduce::Error::InvalidUse(format!(
            "the host cannot hold {n} values of {} bytes for the input and its reference",
            std::mem::size_of::<T>()
        ))
    })?;
    v.extend((0..n).map(|_| f()));
    Ok(v)
}

/// Uploads random data of the chosen type and measures it with the chosen result type.
pub fn shape_row(
    ctx: &Context,
    case: &Case,
    shape: &[usize],
    rng: &mut StdRng,
    progress: Progress,
) -> wgpu_reduce::Result<Row> {
    let n: usize = shape.iter().product();
    progress("drawing random data");
    let op = case.red.op;
    let out = case.out.unwrap_or(op.default_output(case.dtype));
    // The result type is chosen at run time; the library checks it is allowed for the op.
    macro_rules! by_out {
        ($t:ty, $x:expr, $data:expr) => {
            match out {
                DType::F32 => measure::<$t, f32>(ctx, case, &$x, &$data, progress),
                DType::U32 => measure::<$t, u32>(ctx, case, &$x, &$data, progress),
                DType::I32 => measure::<$t, i32>(ctx, case, &$x, &$data, progress),
                DType::F16 => measure::<$t, f16>(ctx, case, &$x, &$data, progress),
                _ => measure::<$t, bf16>(ctx, case, &$x, &$data, progress),
            }
        };
    }
    macro_rules! floats {
        ($t:ty, $conv:expr) => {{
            let v: Vec<$t> = try_vec(n, || $conv(draw(rng, op)))?;
            let mut it = v.iter();
            let data = Data::F(try_vec(n, || it.next().map_or(0.0, |&x| x.as_f64()))?);
            let x = ctx.upload_shaped(&v, shape)?;
            drop(v);
            by_out!($t, x, data)
        }};
    }
    macro_rules! ints {
        ($t:ty, $wrap:expr) => {{
            let v: Vec<$t> = try_vec(n, || rng.gen::<$t>() | 1)?;
            let mut it = v.iter();
            let data = $wrap(try_vec(n, || it.next().copied().unwrap_or(1))?);
            let x = ctx.upload_shaped(&v, shape)?;
            by_out!($t, x, data)
        }};
    }
    match case.dtype {
        DType::F16 => floats!(f16, f16::from_f64),
        DType::BF16 => floats!(bf16, bf16::from_f64),
        DType::I32 => ints!(i32, Data::I32),
        DType::U32 => ints!(u32, Data::U32),
        _ => floats!(f32, |v: f64| v as f32),
    }
}

pub fn gbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e9
}
