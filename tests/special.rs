//! Special values and edge rules, with both the subgroup and the shared-memory workgroup step:
//! NaN (min/max propagate it, argmin/argmax return the first NaN, as PyTorch), ±Inf, -0.0,
//! subnormals, all-equal values (ties → lowest index), i32/u32 extremes, numerically hard
//! variance, f16 sums that overflow f16 but not f32, and the 16-bit rounding of results.

mod common;

use common::{contexts, rng};
use half::{bf16, f16};
use rand::Rng;
use wgpu_reduce::{Context, Element, GpuArray, ReduceOp, Reduction};

fn scalar<T: Element, O: Element>(ctx: &Context, x: &GpuArray<T>, red: &Reduction) -> Vec<O> {
    ctx.run(|rec| rec.reduce::<T, O>(x, red)).unwrap()
}

/// Whole array and along both axes of a [rows, n / rows] view, for min, max, argmin, argmax.
fn check_nan_rules<T: Element>(
    ctx: &Context,
    data: &[T],
    is_nan: impl Fn(&T) -> bool,
    label: &str,
) {
    let n = data.len();
    let first = data.iter().position(&is_nan).expect("data has a NaN");
    let x = ctx.upload(data).unwrap();
    for op in [ReduceOp::Min, ReduceOp::Max] {
        let v: Vec<T> = scalar(ctx, &x, &Reduction::new(op));
        assert!(
            is_nan(&v[0]),
            "{label} {op:?} n={n}: NaN dropped, got {:?}",
            v[0]
        );
    }
    for op in [ReduceOp::Argmin, ReduceOp::Argmax] {
        let i: Vec<u32> = scalar(ctx, &x, &Reduction::new(op));
        assert_eq!(
            i[0] as usize, first,
            "{label} {op:?} n={n}: not the first NaN"
        );
    }
    // Along axes of a 2-D view: every row / column containing a NaN reports its first NaN.
    let rows = 4;
    if n.is_multiple_of(rows) {
        let cols = n / rows;
        let x2 = x.reshape(&[rows, cols]).unwrap();
        let got: Vec<u32> = scalar(ctx, &x2, &Reduction::new(ReduceOp::Argmax).axes(1));
        for (r, &g) in got.iter().enumerate() {
            let row = &data[r * cols..(r + 1) * cols];
            if let Some(p) = row.iter().position(&is_nan) {
                assert_eq!(g as usize, p, "{label} argmax along rows, row {r}");
            }
        }
        let got: Vec<T> = scalar(ctx, &x2, &Reduction::new(ReduceOp::Min).axes(0));
        for (c, g) in got.iter().enumerate() {
            let has = (0..rows).any(|r| is_nan(&data[r * cols + c]));
            assert_eq!(is_nan(g), has, "{label} min along columns, column {c}");
        }
    }
}

#[test]
fn nan_propagates_and_argmin_argmax_return_the_first_nan() {
    let mut rng = rng("nan_rules");
    for ctx in contexts() {
        for n in [1usize, 8, 1000, 4096, 65_540] {
            for _ in 0..3 {
                let mut data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
                let nans = rng.gen_range(1..=3.min(n));
                for _ in 0..nans {
                    let at = rng.gen_range(0..n);
                    data[at] = if rng.gen() { f32::NAN } else { -f32::NAN };
                }
                check_nan_rules(ctx, &data, |v| v.is_nan(), "f32");
                let h: Vec<f16> = data.iter().map(|&v| f16::from_f32(v)).collect();
                check_nan_rules(ctx, &h, |v| v.is_nan(), "f16");
                let b: Vec<bf16> = data.iter().map(|&v| bf16::from_f32(v)).collect();
                check_nan_rules(ctx, &b, |v| v.is_nan(), "bf16");
            }
            // The NaN in the last place, where a tail or the last workgroup reads it.
            let mut data: Vec<f32> = (0..n).map(|i| i as f32).collect();
            data[n - 1] = f32::NAN;
            check_nan_rules(ctx, &data, |v| v.is_nan(), "f32 last");
        }
    }
}

#[test]
fn infinities_and_signed_zeros() {
    for ctx in contexts() {
        let x = ctx
            .upload(&[1.0f32, f32::INFINITY, -5.0, f32::NEG_INFINITY, 2.0])
            .unwrap();
        assert_eq!(extremes(ctx, &x), (f32::INFINITY, f32::NEG_INFINITY, 1, 3));
        assert!(
            ctx.run(|rec| rec.sum(&x, .., false))
                .map(|v| v[0])
                .unwrap()
                .is_nan(),
            "inf + -inf is NaN"
        );
        let v = ctx
            .run(|rec| rec.var(&x, 1, .., false))
            .map(|v| v[0])
            .unwrap();
        assert!(v.is_nan(), "var with infinities is NaN, got {v}");
        let one_inf = ctx.upload(&[1.0f32, f32::INFINITY, 3.0]).unwrap();
        assert!(
            ctx.run(|rec| rec.std(&one_inf, 0, .., false))
                .map(|v| v[0])
                .unwrap()
                .is_nan(),
            "std with one infinity is NaN"
        );
        // All -inf: argmax is the first element (a tie), max is -inf.
        let y = ctx.upload(&[f32::NEG_INFINITY; 7]).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.argmax(&y, .., false))
                .map(|v| v[0])
                .unwrap(),
            0
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&y, .., false)).map(|v| v[0]).unwrap(),
            f32::NEG_INFINITY
        );
        // -0.0 and 0.0 are equal: ties go to the lowest index; min/max return a zero.
        let z = ctx.upload(&[-0.0f32, 0.0, -0.0, 0.0]).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.argmax(&z, .., false))
                .map(|v| v[0])
                .unwrap(),
            0
        );
        assert_eq!(
            ctx.run(|rec| rec.argmin(&z, .., false))
                .map(|v| v[0])
                .unwrap(),
            0
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&z, .., false)).map(|v| v[0]).unwrap(),
            0.0
        );
        assert_eq!(
            ctx.run(|rec| rec.min(&z, .., false)).map(|v| v[0]).unwrap(),
            0.0
        );
        // The sum of negative zeros is +0.0 (the identity is +0.0; documented).
        let s = ctx
            .run(|rec| rec.sum(&ctx.upload(&[-0.0f32; 5]).unwrap(), .., false))
            .map(|v| v[0])
            .unwrap();
        assert_eq!(s.to_bits(), 0);
    }
}

#[test]
fn subnormals_are_kept() {
    for ctx in contexts() {
        // f16 subnormals are widened exactly (unpack2x16float), by the vec4 loads of long
        // arrays as by the scalar loads of short ones and of axes: sums of multiples of 2^-24
        // below 1 are exact in f32.
        let mut r = common::rng("f16 subnormals");
        let long: Vec<f16> = (0..4099 * 4)
            .map(|_| f16::from_bits(r.gen_range(1u16..0x400) | if r.gen() { 0x8000 } else { 0 }))
            .collect();
        let want: f64 = long.iter().map(|v| v.to_f64()).sum();
        let xl = ctx.upload(&long).unwrap();
        let s: Vec<f32> = scalar(ctx, &xl, &Reduction::new(ReduceOp::Sum));
        assert_eq!(f64::from(s[0]), want, "long f16 subnormal sum");
        let cols: Vec<f32> = scalar(
            ctx,
            &xl.reshape(&[4099, 4]).unwrap(),
            &Reduction::new(ReduceOp::Sum).axes(0),
        );
        for (c, g) in cols.iter().enumerate() {
            let w: f64 = long.iter().skip(c).step_by(4).map(|v| v.to_f64()).sum();
            assert_eq!(f64::from(*g), w, "f16 subnormal column {c}");
        }
        let tiny = f16::from_bits(1); // 2^-24
        let h = vec![
            tiny,
            f16::from_bits(3),
            f16::from_bits(0x3ff),
            tiny,
            f16::from_bits(2),
        ];
        let x = ctx.upload(&h).unwrap();
        let s: Vec<f32> = scalar(ctx, &x, &Reduction::new(ReduceOp::Sum));
        let want: f32 = h.iter().map(|v| v.to_f32()).sum();
        assert_eq!(s[0], want, "f16 subnormal sum");
        assert_eq!(
            ctx.run(|rec| rec.argmax(&x, .., false))
                .map(|v| v[0])
                .unwrap(),
            2
        );
        assert_eq!(
            ctx.run(|rec| rec.argmin(&x, .., false))
                .map(|v| v[0])
                .unwrap(),
            0
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
            f16::from_bits(0x3ff)
        );
        // A subnormal f32 result of f16 input packs back to the same f16 subnormal.
        let m: Vec<f16> = scalar(ctx, &x, &Reduction::new(ReduceOp::Min));
        assert_eq!(m[0].to_bits(), 1);
        // f32 subnormals: min/max/argmin/argmax compare exact integer keys, so they never
        // flush, on any device.
        let d = [
            f32::from_bits(5),
            f32::from_bits(7),
            f32::from_bits(3),
            f32::from_bits(1 << 22),
            -f32::from_bits(2),
        ];
        let y = ctx.upload(&d).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.argmax(&y, .., false))
                .map(|v| v[0])
                .unwrap(),
            3
        );
        assert_eq!(
            ctx.run(|rec| rec.argmin(&y, .., false))
                .map(|v| v[0])
                .unwrap(),
            4
        );
        assert_eq!(
            ctx.run(|rec| rec.min(&y, .., false))
                .map(|v| v[0])
                .unwrap()
                .to_bits(),
            (-f32::from_bits(2)).to_bits()
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&y, .., false))
                .map(|v| v[0])
                .unwrap()
                .to_bits(),
            1 << 22
        );
        let y2 = ctx.upload_shaped(&d[..4], &[2, 2]).unwrap();
        let cols: Vec<f32> = scalar(ctx, &y2, &Reduction::new(ReduceOp::Max).axes(0));
        assert_eq!(
            cols.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            vec![5, 1 << 22]
        );
        // Arithmetic (sum, mean, var) follows the device's float mode: exact where subnormals
        // are kept (lavapipe), zero where the driver flushes them (NVIDIA's Vulkan driver,
        // Metal's default); nothing else is allowed.
        let s = ctx
            .run(|rec| rec.sum(&ctx.upload(&d[..4]).unwrap(), .., false))
            .map(|v| v[0])
            .unwrap()
            .to_bits();
        assert!(
            s == 5 + 7 + 3 + (1 << 22) || s == 0,
            "subnormal sum bits {s:#x}"
        );
        eprintln!(
            "f32 subnormal sum on this device: {}",
            if s == 0 { "flushed to zero" } else { "exact" }
        );
    }
}

#[test]
fn all_equal_values_tie_to_the_lowest_index() {
    let mut rng = rng("all_equal");
    for ctx in contexts() {
        for n in [3usize, 1024, 70_001] {
            let v: f32 = rng.gen_range(-10.0..10.0);
            let x = ctx.upload(&vec![v; n]).unwrap();
            assert_eq!(
                ctx.run(|rec| rec.argmax(&x, .., false))
                    .map(|v| v[0])
                    .unwrap(),
                0
            );
            assert_eq!(
                ctx.run(|rec| rec.argmin(&x, .., false))
                    .map(|v| v[0])
                    .unwrap(),
                0
            );
            assert_eq!(
                ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
                v
            );
            assert_eq!(
                ctx.run(|rec| rec.min(&x, .., false)).map(|v| v[0]).unwrap(),
                v
            );
            assert_eq!(
                ctx.run(|rec| rec.var(&x, 1, .., false))
                    .map(|v| v[0])
                    .unwrap(),
                0.0
            );
            assert_eq!(
                ctx.run(|rec| rec.std(&x, 0, .., false))
                    .map(|v| v[0])
                    .unwrap(),
                0.0
            );
            // Along axes too: every row's and column's first index.
            let x2 = ctx.upload_shaped(&vec![v; 3 * n], &[3, n]).unwrap();
            let rows: Vec<u32> = scalar(ctx, &x2, &Reduction::new(ReduceOp::Argmin).axes(1));
            assert_eq!(rows, vec![0; 3]);
            let cols: Vec<u32> = scalar(ctx, &x2, &Reduction::new(ReduceOp::Argmax).axes(0));
            assert_eq!(cols, vec![0; n]);
            // Two equal maxima: the first one.
            let mut d: Vec<i32> = (0..n as i32).map(|i| i % 100).collect();
            let (a, b) = (n / 3, 2 * n / 3);
            d[a] = 1000;
            d[b] = 1000;
            assert_eq!(
                ctx.run(|rec| rec.argmax(&ctx.upload(&d).unwrap(), .., false))
                    .map(|v| v[0])
                    .unwrap() as usize,
                a
            );
        }
    }
}

#[test]
fn integer_extremes() {
    for ctx in contexts() {
        let d = [0i32, i32::MAX, -1, i32::MIN, 7, i32::MIN, i32::MAX];
        let x = ctx.upload(&d).unwrap();
        assert_eq!(extremes(ctx, &x), (i32::MAX, i32::MIN, 1, 3));
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            d.iter().fold(0i32, |a, &b| a.wrapping_add(b))
        );
        let all_min = ctx.upload(&[i32::MIN; 5]).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.argmax(&all_min, .., false))
                .map(|v| v[0])
                .unwrap(),
            0
        );
        let u = [5u32, u32::MAX, 0, u32::MAX, 0];
        let y = ctx.upload(&u).unwrap();
        assert_eq!(extremes(ctx, &y), (u32::MAX, 0, 1, 2));
        assert_eq!(
            ctx.run(|rec| rec.sum(&y, .., false)).map(|v| v[0]).unwrap(),
            5u32.wrapping_add(u32::MAX).wrapping_add(u32::MAX)
        );
        let all_max = ctx.upload(&[u32::MAX; 9]).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.argmin(&all_max, .., false))
                .map(|v| v[0])
                .unwrap(),
            0
        );
        // Mean and var of integers are computed in f32.
        let m = ctx
            .run(|rec| rec.mean(&ctx.upload(&[i32::MAX, i32::MAX]).unwrap(), .., false))
            .map(|v| v[0])
            .unwrap();
        assert_eq!(m, i32::MAX as f32);
    }
}

/// Data with a large mean and a small spread, where `E[x²] - E[x]²` in f32 cancels
/// catastrophically. Tolerance: relative 1e-3 of the f64 variance (stated; the naive f32 formula,
/// computed here on the CPU, misses it by orders of magnitude, so the check can fail).
#[test]
fn var_is_stable_for_a_large_mean_and_small_variance() {
    let mut rng = rng("var_stable");
    for ctx in contexts() {
        let n = 1 << 16;
        let data: Vec<f32> = (0..n)
            .map(|_| 10_000.0 + rng.gen_range(-1.0f32..1.0))
            .collect();
        let mean: f64 = data.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
        let var64: f64 = data
            .iter()
            .map(|&v| (f64::from(v) - mean).powi(2))
            .sum::<f64>()
            / (n - 1) as f64;
        let tol = 1e-3 * var64;
        // The naive formula in f32, to show the tolerance discriminates.
        let (s, s2) = data
            .iter()
            .fold((0f32, 0f32), |(s, s2), &v| (s + v, s2 + v * v));
        let naive = (s2 - s * s / n as f32) / (n - 1) as f32;
        assert!(
            (f64::from(naive) - var64).abs() > tol,
            "naive var {naive} vs {var64} would pass"
        );

        let x = ctx.upload(&data).unwrap();
        let v = ctx
            .run(|rec| rec.var(&x, 1, .., false))
            .map(|v| v[0])
            .unwrap();
        assert!(
            (f64::from(v) - var64).abs() <= tol,
            "var {v}, want {var64} ± {tol}"
        );
        let sd = ctx
            .run(|rec| rec.std(&x, 1, .., false))
            .map(|v| v[0])
            .unwrap();
        assert!(
            (f64::from(sd) - var64.sqrt()).abs() <= 1e-3 * var64.sqrt(),
            "std {sd}"
        );
        // Along both axes of a [256, 256] view.
        let x2 = x.reshape(&[256, 256]).unwrap();
        for axis in [0, 1] {
            let got: Vec<f32> = scalar(ctx, &x2, &Reduction::new(ReduceOp::Var).axes(axis));
            for (o, &g) in got.iter().enumerate() {
                let xs: Vec<f64> = (0..256)
                    .map(|j| {
                        f64::from(if axis == 1 {
                            data[o * 256 + j]
                        } else {
                            data[j * 256 + o]
                        })
                    })
                    .collect();
                let m = xs.iter().sum::<f64>() / 256.0;
                let want = xs.iter().map(|v| (v - m).powi(2)).sum::<f64>() / 255.0;
                assert!(
                    (f64::from(g) - want).abs() <= 1e-3 * want,
                    "axis {axis} output {o}: {g} vs {want}"
                );
            }
        }
    }
}

/// 2^24 f16 values whose sum (~8e9) is far beyond f16's range (65504) but well inside f32's:
/// accumulated in f32 and returned as f32 it is finite and within the f32 sum bound; returned
/// as f16 it is +inf, the correctly rounded f16 of that sum.
#[test]
fn f16_sum_of_2_pow_24_values_does_not_overflow_in_f32() {
    let mut rng = rng("f16_overflow");
    let ctx = common::ctx();
    let n = 1 << 24;
    let h: Vec<f16> = (0..n)
        .map(|_| f16::from_f32(rng.gen_range(0.0f32..1000.0)))
        .collect();
    let want: f64 = h.iter().map(|v| f64::from(v.to_f32())).sum();
    let x = ctx.upload(&h).unwrap();
    let s: Vec<f32> = scalar(ctx, &x, &Reduction::new(ReduceOp::Sum));
    let tol = common::f32_sum_tolerance(n, want, ctx.tuning());
    assert!(s[0].is_finite(), "f16 sum overflowed: {}", s[0]);
    assert!(
        (f64::from(s[0]) - want).abs() <= tol,
        "sum {} vs {want} ± {tol}",
        s[0]
    );
    let m: Vec<f32> = scalar(ctx, &x, &Reduction::new(ReduceOp::Mean));
    assert!((f64::from(m[0]) - want / n as f64).abs() <= tol / n as f64 + 1e-4);
    let s16: Vec<f16> = scalar(ctx, &x, &Reduction::new(ReduceOp::Sum));
    assert_eq!(s16[0], f16::INFINITY);
}

/// Results returned in f16/bf16 are rounded to nearest even from the f32 result: the sum of
/// two 16-bit values is one correctly rounded f32 addition, so the expected bits are exact. The
/// sum starts from the identity +0.0 (so -0.0 + -0.0 gives +0.0, as documented), hence `0.0 +`.
#[test]
fn sixteen_bit_results_round_to_nearest_even() {
    let mut rng = rng("half_rounding");
    let ctx = common::ctx();
    let n = 20_000;
    let pick = |rng: &mut rand::rngs::StdRng| {
        let e: i32 = rng.gen_range(-20..15);
        rng.gen_range(-1.0f32..1.0) * 2f32.powi(e)
    };
    let a: Vec<f32> = (0..2 * n).map(|_| pick(&mut rng)).collect();
    let h: Vec<f16> = a.iter().map(|&v| f16::from_f32(v)).collect();
    let x = ctx.upload_shaped(&h, &[n, 2]).unwrap();
    let got: Vec<f16> = scalar(ctx, &x, &Reduction::new(ReduceOp::Sum).axes(1));
    for i in 0..n {
        let want = f16::from_f32(0.0 + h[2 * i].to_f32() + h[2 * i + 1].to_f32());
        assert_eq!(
            got[i].to_bits(),
            want.to_bits(),
            "f16 pair {i}: {:?} + {:?}",
            h[2 * i],
            h[2 * i + 1]
        );
    }
    let b: Vec<bf16> = a.iter().map(|&v| bf16::from_f32(v * 1e10)).collect();
    let y = ctx.upload_shaped(&b, &[n, 2]).unwrap();
    let got: Vec<bf16> = scalar(ctx, &y, &Reduction::new(ReduceOp::Sum).axes(1));
    for i in 0..n {
        let want = bf16::from_f32(0.0 + b[2 * i].to_f32() + b[2 * i + 1].to_f32());
        assert_eq!(got[i].to_bits(), want.to_bits(), "bf16 pair {i}");
    }
}

/// The maximum, minimum, argmax and argmin of the whole of `x`, recorded together and read in
/// one step.
fn extremes<T: wgpu_reduce::Element>(
    ctx: &Context,
    x: &wgpu_reduce::GpuArray<T>,
) -> (T, T, u32, u32) {
    let (hi, lo, at_hi, at_lo) = ctx
        .run(|rec| {
            Ok((
                rec.max(x, .., false)?,
                rec.min(x, .., false)?,
                rec.argmax(x, .., false)?,
                rec.argmin(x, .., false)?,
            ))
        })
        .unwrap();
    (hi[0], lo[0], at_hi[0], at_lo[0])
}
