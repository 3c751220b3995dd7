//! Runs a reduction on the GPU for run-time element types, returning f64 values.

use half::{bf16, f16};
use wgpu_reduce::{
    Context, DType, Element, Error, GpuArray, ReadToken, Recorder, ReduceOp, Reduction, Results,
};

use rand::rngs::StdRng;
use rand::Rng;

#[cfg_attr(target_arch = "wasm32", allow(unused_imports))]
use super::reference::{check, reference, Data};

/// Element types as f64, for comparison with the reference.
pub trait AsF64: Element {
    fn as_f64(self) -> f64;
    fn from_f64(x: f64) -> Self;
}

impl AsF64 for f32 {
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(x: f64) -> Self {
        x as f32
    }
}
impl AsF64 for f16 {
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(x: f64) -> Self {
        f16::from_f64(x)
    }
}
impl AsF64 for bf16 {
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(x: f64) -> Self {
        bf16::from_f64(x)
    }
}
impl AsF64 for i32 {
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(x: f64) -> Self {
        x as i32
    }
}
impl AsF64 for u32 {
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(x: f64) -> Self {
        x as u32
    }
}

/// Uploads `data` as `dtype` with `shape`.
pub struct Input {
    pub dtype: DType,
    pub f32: Option<GpuArray<f32>>,
    pub f16: Option<GpuArray<f16>>,
    pub bf16: Option<GpuArray<bf16>>,
    pub i32: Option<GpuArray<i32>>,
    pub u32: Option<GpuArray<u32>>,
}

/// Random-ish data of `dtype` made by `f` (floats: values exactly representable in `dtype`).
/// NaN with probability `nan_rate`, else a zero (either sign, evenly) with probability
/// `zero_rate`, else `None`: the caller draws the value.
pub fn nan_or_zero(g: &mut impl Rng, nan_rate: f64, zero_rate: f64) -> Option<f64> {
    let u: f64 = g.gen();
    if u < nan_rate {
        Some(f64::NAN)
    } else if u < nan_rate + zero_rate {
        Some(if g.gen_bool(0.5) { -0.0 } else { 0.0 })
    } else {
        None
    }
}

pub fn make_data(
    dtype: DType,
    n: usize,
    mut f: impl FnMut() -> f64,
    mut i: impl FnMut() -> i64,
) -> Data {
    match dtype {
        DType::F32 => Data::F((0..n).map(|_| f64::from(f() as f32)).collect()),
        DType::F16 => Data::F((0..n).map(|_| f64::from(f16::from_f64(f()))).collect()),
        DType::BF16 => Data::F((0..n).map(|_| f64::from(bf16::from_f64(f()))).collect()),
        DType::I32 => Data::I32((0..n).map(|_| i() as i32).collect()),
        DType::U32 => Data::U32((0..n).map(|_| i() as u32).collect()),
        other => panic!("no test data for {other}"),
    }
}

/// Uploads `d` as an array of `T` with `shape`.
pub fn upload_as<T: AsF64>(ctx: &Context, d: &Data, shape: &[usize]) -> Result<GpuArray<T>, Error> {
    let v: Vec<T> = match d {
        Data::F(v) => v.iter().map(|&x| T::from_f64(x)).collect(),
        Data::I32(v) => v.iter().map(|&x| T::from_f64(f64::from(x))).collect(),
        Data::U32(v) => v.iter().map(|&x| T::from_f64(f64::from(x))).collect(),
    };
    ctx.upload_shaped(&v, shape)
}

pub fn upload(ctx: &Context, dtype: DType, data: &Data, shape: &[usize]) -> Input {
    let mut inp = Input {
        dtype,
        f32: None,
        f16: None,
        bf16: None,
        i32: None,
        u32: None,
    };
    match (dtype, data) {
        (DType::F32, Data::F(v)) => {
            let x: Vec<f32> = v.iter().map(|&x| x as f32).collect();
            inp.f32 = Some(ctx.upload_shaped(&x, shape).unwrap());
        }
        (DType::F16, Data::F(v)) => {
            let x: Vec<f16> = v.iter().map(|&x| f16::from_f64(x)).collect();
            inp.f16 = Some(ctx.upload_shaped(&x, shape).unwrap());
        }
        (DType::BF16, Data::F(v)) => {
            let x: Vec<bf16> = v.iter().map(|&x| bf16::from_f64(x)).collect();
            inp.bf16 = Some(ctx.upload_shaped(&x, shape).unwrap());
        }
        (DType::I32, Data::I32(v)) => inp.i32 = Some(ctx.upload_shaped(v, shape).unwrap()),
        (DType::U32, Data::U32(v)) => inp.u32 = Some(ctx.upload_shaped(v, shape).unwrap()),
        _ => panic!("data does not match {dtype}"),
    }
    inp
}

/// Evaluates `$body` with `$x` bound to `$inp`'s array, whatever its element type.
macro_rules! with_input {
    ($inp:expr, |$x:ident| $body:expr) => {{
        let inp = $inp;
        match inp.dtype {
            DType::F32 => {
                let $x = inp.f32.as_ref().unwrap();
                $body
            }
            DType::F16 => {
                let $x = inp.f16.as_ref().unwrap();
                $body
            }
            DType::BF16 => {
                let $x = inp.bf16.as_ref().unwrap();
                $body
            }
            DType::I32 => {
                let $x = inp.i32.as_ref().unwrap();
                $body
            }
            DType::U32 => {
                let $x = inp.u32.as_ref().unwrap();
                $body
            }
            other => panic!("no input type {other}"),
        }
    }};
}

/// Evaluates `$body` with the type `$o` standing for the element type `$out`.
macro_rules! with_output {
    ($out:expr, $o:ident => $body:expr) => {
        match $out {
            DType::F32 => {
                type $o = f32;
                $body
            }
            DType::F16 => {
                type $o = half::f16;
                $body
            }
            DType::BF16 => {
                type $o = half::bf16;
                $body
            }
            DType::I32 => {
                type $o = i32;
                $body
            }
            DType::U32 => {
                type $o = u32;
                $body
            }
            other => panic!("no output type {other}"),
        }
    };
}

/// Records `red` of `x` as `O` and a read of it: the read's token and the result's shape.
pub fn record_reduce<T: Element, O: Element>(
    rec: &mut Recorder,
    x: &GpuArray<T>,
    red: &Reduction,
) -> Result<(ReadToken<O>, Vec<usize>), Error> {
    let y = rec.reduce::<T, O>(x, red)?;
    Ok((rec.read(&y)?, y.shape().to_vec()))
}

/// Records the scan of `x` and a read of it.
pub fn record_scan<T: Element>(
    rec: &mut Recorder,
    x: &GpuArray<T>,
    scan: &wgpu_reduce::Scan,
) -> Result<ReadToken<T::Acc>, Error> {
    let y = rec.scan::<T, T::Acc>(x, scan)?;
    assert_eq!(y.shape(), x.shape(), "scan result shape");
    rec.read(&y)
}

/// The values read into `t`, as f64.
pub fn values<O: AsF64>(res: &Results, t: &ReadToken<O>) -> Result<Vec<f64>, Error> {
    Ok(res.get(t)?.into_iter().map(AsF64::as_f64).collect())
}

/// Runs `red` on `inp`, returning the result as f64 values and its shape.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(
    ctx: &Context,
    inp: &Input,
    red: &Reduction,
    out: DType,
) -> Result<(Vec<f64>, Vec<usize>), Error> {
    with_input!(inp, |x| with_output!(out, O => {
        let mut rec = ctx.recorder();
        let (t, shape) = record_reduce::<_, O>(&mut rec, x, red)?;
        Ok((values(&rec.submit()?.wait()?, &t)?, shape))
    }))
}

/// Runs `scan` on `inp`, returning the result as f64 values.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_scan(ctx: &Context, inp: &Input, scan: &wgpu_reduce::Scan) -> Result<Vec<f64>, Error> {
    with_input!(inp, |x| {
        let mut rec = ctx.recorder();
        let t = record_scan(&mut rec, x, scan)?;
        values(&rec.submit()?.wait()?, &t)
    })
}

/// Random data of `dtype` for `op` (in [-1, 1), or near 1 for products so they stay finite).
pub fn data_for(rng: &mut StdRng, op: ReduceOp, dtype: DType, n: usize) -> Data {
    let near_one = op == ReduceOp::Prod;
    let mut r1 = StdRng::clone(rng);
    let d = make_data(
        dtype,
        n,
        || {
            if near_one {
                r1.gen_range(0.99..1.01)
            } else {
                r1.gen_range(-1.0..1.0)
            }
        },
        || i64::from(rng.gen::<i32>()),
    );
    *rng = r1;
    d
}

#[cfg(not(target_arch = "wasm32"))]
/// Runs `red` on random data of `dtype` and `shape`, for every allowed result type, and checks
/// values and shape against the reference (a sweep samples its calls: see `common::Sweep`).
pub fn case_always(
    ctx: &Context,
    rng: &mut StdRng,
    dtype: DType,
    shape: &[usize],
    red: &Reduction,
) {
    let n: usize = shape.iter().product();
    case_of(ctx, &data_for(rng, red.op, dtype, n), dtype, shape, red);
}

#[cfg(not(target_arch = "wasm32"))]
/// Runs `red` on `data` (of `dtype` and `shape`) for every allowed result type, and checks
/// values and shape against the reference.
pub fn case_of(ctx: &Context, data: &Data, dtype: DType, shape: &[usize], red: &Reduction) {
    let inp = upload(ctx, dtype, data, shape);
    let want = reference(data, shape, red);
    for out in red.op.allowed_outputs(dtype) {
        let what = format!(
            "{} {dtype}->{out} shape {shape:?} axes {:?} keepdim {} correction {} p {}",
            red.op.name(),
            red.axes,
            red.keepdim,
            red.correction,
            red.p
        );
        let (got, got_shape) = run(ctx, &inp, red, out).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(got_shape, red.output_shape(shape).unwrap(), "{what}: shape");
        check(&what, red.op, dtype, out, &got, &want);
    }
}
