//! CPU reference for every reduction, in f64 (floats) or wrapping 32-bit arithmetic (integers),
//! over any shape and set of axes, with the tolerance each result is checked against.

use half::{bf16, f16};
use wgpu_reduce::{DType, ReduceOp, Reduction};

const U: f64 = f32::EPSILON as f64 / 2.0;

/// Input values as the reference sees them: floats exactly as f64, integers as i64.
#[derive(Debug, Clone)]
pub enum Data {
    F(Vec<f64>),
    I32(Vec<i32>),
    U32(Vec<u32>),
}

impl Data {
    pub fn len(&self) -> usize {
        match self {
            Data::F(v) => v.len(),
            Data::I32(v) => v.len(),
            Data::U32(v) => v.len(),
        }
    }
}

/// One expected output value, with what the tolerance needs.
#[derive(Debug, Clone, Copy)]
pub struct Expected {
    /// The value (an index for argmin/argmax; wrapped for integer sums/products).
    pub value: f64,
    /// Σ|x| (sum, mean) or Σ(x - mean)² (var/std) of the reduced elements, for tolerances.
    pub mag: f64,
    /// Elements reduced.
    pub r: usize,
    /// Mean of the reduced elements (var/std tolerance).
    pub mean: f64,
}

/// Groups the elements of `data` by output index, each group in increasing order of its index
/// along the reduced axes.
fn groups(len: usize, shape: &[usize], mask: &[bool]) -> Vec<Vec<usize>> {
    let out_len: usize = shape
        .iter()
        .zip(mask)
        .filter(|(_, &m)| !m)
        .map(|(&d, _)| d)
        .product();
    let mut g = vec![Vec::new(); out_len];
    let mut idx = vec![0usize; shape.len()];
    for flat in 0..len {
        let mut o = 0;
        for (d, (&i, &m)) in idx.iter().zip(mask).enumerate() {
            if !m {
                o = o * shape[d] + i;
            }
        }
        g[o].push(flat);
        for d in (0..shape.len()).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    g
}

pub fn reference(data: &Data, shape: &[usize], red: &Reduction) -> Vec<Expected> {
    if red.op == ReduceOp::AMinMax {
        // Pairs (minimum, maximum) per output.
        let lo = reference(
            data,
            shape,
            &Reduction {
                op: ReduceOp::Min,
                ..red.clone()
            },
        );
        let hi = reference(
            data,
            shape,
            &Reduction {
                op: ReduceOp::Max,
                ..red.clone()
            },
        );
        return lo.into_iter().zip(hi).flat_map(|(a, b)| [a, b]).collect();
    }
    let mask = red.reduced_mask(shape).expect("valid axes");
    let op = red.op;
    groups(data.len(), shape, &mask)
        .into_iter()
        .map(|g| {
            let r = g.len();
            let mut e = Expected {
                value: 0.0,
                mag: 0.0,
                r,
                mean: 0.0,
            };
            match data {
                Data::F(v) => {
                    let xs: Vec<f64> = g.iter().map(|&i| v[i]).collect();
                    float_ref(op, &xs, red, &mut e);
                }
                Data::I32(v) => int_ref(
                    op,
                    v,
                    &g,
                    red.correction,
                    &mut e,
                    i32::wrapping_add,
                    i32::wrapping_mul,
                    0,
                    1,
                ),
                Data::U32(v) => int_ref(
                    op,
                    v,
                    &g,
                    red.correction,
                    &mut e,
                    u32::wrapping_add,
                    u32::wrapping_mul,
                    0,
                    1,
                ),
            }
            e
        })
        .collect()
}

/// Integer reductions: wrapping sums and products, exact min/max/arg; mean/var/std in f64.
#[allow(clippy::too_many_arguments)]
fn int_ref<T: Copy + Ord + Into<f64>>(
    op: ReduceOp,
    v: &[T],
    g: &[usize],
    correction: u32,
    e: &mut Expected,
    add: fn(T, T) -> T,
    mul: fn(T, T) -> T,
    zero: T,
    one: T,
) {
    // The NaN-ignoring forms of integers are the plain operations.
    let op = op.for_input(DType::I32);
    let xs: Vec<T> = g.iter().map(|&i| v[i]).collect();
    let nonzero = xs.iter().filter(|&&x| x != zero).count() as f64;
    let f: Vec<f64> = xs.iter().map(|&x| x.into()).collect();
    e.value = match op {
        ReduceOp::Any => f64::from(nonzero > 0.0),
        ReduceOp::All => f64::from(nonzero == xs.len() as f64),
        ReduceOp::CountNonzero => nonzero,
        ReduceOp::Sum => xs.iter().fold(zero, |a, &b| add(a, b)).into(),
        ReduceOp::Prod => xs.iter().fold(one, |a, &b| mul(a, b)).into(),
        ReduceOp::Min => (*xs.iter().min().unwrap()).into(),
        ReduceOp::Max => (*xs.iter().max().unwrap()).into(),
        ReduceOp::Argmin => first_index(&xs, xs.iter().min().unwrap()),
        ReduceOp::Argmax => first_index(&xs, xs.iter().max().unwrap()),
        _ => {
            float_ref(op, &f, &Reduction::new(op).correction(correction), e);
            e.value
        }
    };
}

fn first_index<T: PartialEq>(xs: &[T], want: &T) -> f64 {
    xs.iter().position(|x| x == want).unwrap() as f64
}

fn float_ref(op: ReduceOp, xs: &[f64], red: &Reduction, e: &mut Expected) {
    let correction = red.correction;
    let kept: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
    let nonzero = xs.iter().filter(|&&x| x != 0.0).count() as f64;
    let abs: Vec<f64> = xs.iter().map(|x| x.abs()).collect();
    let n = xs.len() as f64;
    let sum: f64 = xs.iter().sum();
    e.mag = xs.iter().map(|x| x.abs()).sum();
    let first_nan = xs.iter().position(|x| x.is_nan());
    e.value = match op {
        ReduceOp::Sum => sum,
        ReduceOp::Prod => xs.iter().product(),
        ReduceOp::Mean => sum / n,
        ReduceOp::Min | ReduceOp::Max if first_nan.is_some() => f64::NAN,
        ReduceOp::Min => xs.iter().copied().fold(f64::INFINITY, f64::min),
        ReduceOp::Max => xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ReduceOp::Argmin | ReduceOp::Argmax => match first_nan {
            Some(i) => i as f64,
            None => {
                let best = if op == ReduceOp::Argmin {
                    xs.iter().copied().fold(f64::INFINITY, f64::min)
                } else {
                    xs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                };
                xs.iter().position(|&x| x == best).unwrap() as f64
            }
        },
        ReduceOp::Var | ReduceOp::Std => {
            let mean = sum / n;
            let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
            e.mag = ss;
            e.mean = mean;
            let var = ss / (n - f64::from(correction)).max(0.0);
            if op == ReduceOp::Std {
                var.sqrt()
            } else {
                var
            }
        }
        ReduceOp::NanSum | ReduceOp::NanMean => {
            e.r = kept.len();
            e.mag = kept.iter().map(|x| x.abs()).sum();
            let s: f64 = kept.iter().sum();
            match (op, kept.len()) {
                (ReduceOp::NanSum, _) => s,
                (_, 0) => f64::NAN,
                (_, k) => s / k as f64,
            }
        }
        ReduceOp::NanMin | ReduceOp::NanMax if kept.is_empty() => f64::NAN,
        ReduceOp::NanMin => kept.iter().copied().fold(f64::INFINITY, f64::min),
        ReduceOp::NanMax => kept.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ReduceOp::NanArgmin | ReduceOp::NanArgmax if kept.is_empty() => f64::from(u32::MAX),
        ReduceOp::NanArgmin | ReduceOp::NanArgmax => {
            let best = if op == ReduceOp::NanArgmin {
                kept.iter().copied().fold(f64::INFINITY, f64::min)
            } else {
                kept.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            };
            xs.iter().position(|&x| x == best).unwrap() as f64
        }
        ReduceOp::Any => f64::from(nonzero > 0.0),
        ReduceOp::All => f64::from(nonzero == n),
        ReduceOp::CountNonzero | ReduceOp::Norm0 => nonzero,
        ReduceOp::LogSumExp => {
            let m = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            e.mag = xs
                .iter()
                .filter(|x| x.is_finite())
                .fold(0.0, |a, x| a.max(x.abs()));
            if first_nan.is_some() {
                f64::NAN
            } else if m.is_infinite() {
                m
            } else {
                m + xs.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
            }
        }
        ReduceOp::Norm1 => {
            e.mag = abs.iter().sum();
            abs.iter().sum()
        }
        ReduceOp::Norm2 => abs.iter().map(|x| x * x).sum::<f64>().sqrt(),
        ReduceOp::NormInf if first_nan.is_some() => f64::NAN,
        ReduceOp::NormNegInf if first_nan.is_some() => f64::NAN,
        ReduceOp::NormInf => abs.iter().copied().fold(0.0, f64::max),
        ReduceOp::NormNegInf => abs.iter().copied().fold(f64::INFINITY, f64::min),
        ReduceOp::NormP => {
            let p = f64::from(red.p);
            e.mag = abs.iter().map(|x| x.powf(p)).sum();
            e.mag.powf(1.0 / p)
        }
        _ => unreachable!("{op:?}"),
    };
}

/// The dot product of `a` and `b` along `red`'s axes: f64 products and sums for floats
/// (`mag` is Σ|a·b|), wrapping 32-bit arithmetic for integers.
pub fn reference_dot(a: &Data, b: &Data, shape: &[usize], red: &Reduction) -> Vec<Expected> {
    let mask = red.reduced_mask(shape).expect("valid axes");
    groups(a.len(), shape, &mask)
        .into_iter()
        .map(|g| {
            let mut e = Expected {
                value: 0.0,
                mag: 0.0,
                r: g.len(),
                mean: 0.0,
            };
            match (a, b) {
                (Data::F(x), Data::F(y)) => {
                    e.value = g.iter().map(|&i| x[i] * y[i]).sum();
                    e.mag = g.iter().map(|&i| (x[i] * y[i]).abs()).sum();
                }
                (Data::I32(x), Data::I32(y)) => {
                    e.value = f64::from(
                        g.iter()
                            .fold(0i32, |s, &i| s.wrapping_add(x[i].wrapping_mul(y[i]))),
                    );
                }
                (Data::U32(x), Data::U32(y)) => {
                    e.value = f64::from(
                        g.iter()
                            .fold(0u32, |s, &i| s.wrapping_add(x[i].wrapping_mul(y[i]))),
                    );
                }
                _ => panic!("dot of different types"),
            }
            e
        })
        .collect()
}

/// Tolerance of one result of `op` over `input`, returned as `output`, against the f64
/// reference.
///
/// - sum: the library's f32 bound, `(r + log2 r + 4) · u · Σ|x|` taken with r elements per
///   lane in the worst case (`u = 2^-24`); mean: the same over r, plus one rounding.
/// - var/std (Welford/Chan in f32): `(√r + log2 r + 8) · 16 · u · κ · var`, where
///   `κ = 1 + |mean| / std` is the data's condition; std half of var's relative error.
/// - prod: `(r + 1) · u · |prod|`; min/max/argmin/argmax and integers: exact.
/// - a 16-bit result adds half an ulp of the result (2^-11 relative for f16, 2^-8 for bf16);
///   arithmetic results add f32's smallest normal (flush to zero / underflow).
pub fn tolerance(op: ReduceOp, input: DType, output: DType, e: &Expected) -> f64 {
    let op = op.for_input(input);
    // Half an ulp of a 16-bit result (nothing for a 32-bit one).
    let half_ulp = match output {
        DType::F16 => e.value.abs() * 2f64.powi(-11) + 2f64.powi(-25),
        DType::BF16 => e.value.abs() * 2f64.powi(-8),
        _ => 0.0,
    };
    if exact(op, input) {
        // Exact in f32; a 16-bit result of a count (the 0-norm) rounds once.
        return half_ulp;
    }
    let r = e.r.max(1) as f64;
    let depth = r.log2().ceil() + 4.0;
    let base = match op {
        ReduceOp::Sum | ReduceOp::NanSum | ReduceOp::Norm1 => (r + depth) * U * e.mag,
        ReduceOp::Dot => (r + depth + 1.0) * U * e.mag,
        ReduceOp::Mean | ReduceOp::NanMean => (r + depth) * U * e.mag / r + U * e.value.abs(),
        ReduceOp::Norm2 => 2.0 * (r + depth + 8.0) * U * e.value.abs(),
        ReduceOp::NormP => (r + depth + 600.0) * U * e.value.abs(),
        ReduceOp::LogSumExp => {
            4.0 * (r + depth + 8.0) * U + 2.0 * U * e.value.abs() + 4.0 * U * e.mag + 2f64.powi(-20)
        }
        ReduceOp::Prod => (r + 1.0) * U * e.value.abs(),
        ReduceOp::Var | ReduceOp::Std => {
            let var = e.mag / r;
            let kappa = 1.0 + e.mean.abs() / var.sqrt().max(f64::MIN_POSITIVE);
            let rel = (r.sqrt() + depth + 8.0) * 16.0 * U * kappa;
            if e.value == 0.0 {
                // No spread (one element, or all equal): every deviation is exactly 0.
                return f64::from(f32::MIN_POSITIVE);
            }
            if op == ReduceOp::Var {
                rel * e.value.abs() + f64::from(f32::MIN_POSITIVE)
            } else {
                rel * e.value.abs() + f64::from(f32::MIN_POSITIVE).sqrt()
            }
        }
        _ => 0.0,
    };
    let round = match output {
        DType::F16 | DType::BF16 => half_ulp,
        _ => f64::from(f32::MIN_POSITIVE),
    };
    // Results below f32's normal range may flush to zero (device float mode, or underflow of a
    // long product that f64 still represents).
    let floor = f64::from(f32::MIN_POSITIVE);
    base * (1.0 + 1e-6) + round + floor
}

/// Whether `op` over `input` is computed exactly: integer sums, products and dot products
/// (wrapping), picks (min, max, their NaN-ignoring forms, aminmax, the inf norms), indices and
/// counts. A 16-bit result of an exact float pick is exact too.
pub fn exact(op: ReduceOp, input: DType) -> bool {
    let op = op.for_input(input);
    let picks = matches!(
        op,
        ReduceOp::Min
            | ReduceOp::Max
            | ReduceOp::NanMin
            | ReduceOp::NanMax
            | ReduceOp::AMinMax
            | ReduceOp::NormInf
            | ReduceOp::NormNegInf
    );
    let counts = op.is_arg() || op.is_count() || op == ReduceOp::Norm0;
    let integer = !input.is_float() && matches!(op, ReduceOp::Sum | ReduceOp::Prod | ReduceOp::Dot);
    picks || counts || integer
}

/// Checks `got` against `want`, element by element, with [`tolerance`]; NaN must match NaN.
pub fn check(
    what: &str,
    op: ReduceOp,
    input: DType,
    output: DType,
    got: &[f64],
    want: &[Expected],
) {
    assert_eq!(got.len(), want.len(), "{what}: result length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if w.value.is_nan() {
            assert!(g.is_nan(), "{what}[{i}]: got {g}, want NaN");
            continue;
        }
        let w_rounded = round_to(output, w.value);
        if w_rounded.is_infinite() || g.is_infinite() {
            assert_eq!(*g, w_rounded, "{what}[{i}]: got {g}, want {}", w.value);
            continue;
        }
        let tol = tolerance(op, input, output, w);
        assert!(
            (g - w.value).abs() <= tol,
            "{what}[{i}]: got {g}, want {} (r = {}), |diff| {} > tolerance {tol}",
            w.value,
            w.r,
            (g - w.value).abs()
        );
    }
}

/// `x` rounded to the precision of `dtype` (infinite where it overflows).
pub fn round_to(dtype: DType, x: f64) -> f64 {
    match dtype {
        DType::F16 => f64::from(f16::from_f64(x)),
        DType::BF16 => f64::from(bf16::from_f64(x)),
        DType::F32 => f64::from(x as f32),
        _ => x,
    }
}
