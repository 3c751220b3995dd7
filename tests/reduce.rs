//! Every reduction × element type × length against a CPU reference (f64 for floats), on fresh
//! seeded random inputs, with both the subgroup and the shared-memory workgroup step. Result
//! buffers are poisoned (0xFF bytes) before each run by the test contexts, so an unwritten
//! result shows up as NaN / -1 / u32::MAX.

mod common;

use common::{contexts, f32_sum_tolerance, random_f32, random_i32, random_u32, rng, LENGTHS};
use rand::Rng;
use wgpu_reduce::{Context, Error, GpuArray};

const U: f64 = f32::EPSILON as f64 / 2.0;

/// Runs sum, prod, min, max, mean of `x` in one recording and returns them.
fn all_ops<T: wgpu_reduce::Element>(ctx: &Context, x: &GpuArray<T>) -> (T, T, T, T, f32) {
    let mut rec = ctx.recorder();
    let s = rec.sum(x, .., false).unwrap();
    let p = rec.prod(x, .., false).unwrap();
    let lo = rec.min(x, .., false).unwrap();
    let hi = rec.max(x, .., false).unwrap();
    let m = rec.mean(x, .., false).unwrap();
    let t = (
        rec.read(&s).unwrap(),
        rec.read(&p).unwrap(),
        rec.read(&lo).unwrap(),
        rec.read(&hi).unwrap(),
    );
    let tm = rec.read(&m).unwrap();
    let r = rec.submit().unwrap().wait().unwrap();
    (
        r.scalar(&t.0).unwrap(),
        r.scalar(&t.1).unwrap(),
        r.scalar(&t.2).unwrap(),
        r.scalar(&t.3).unwrap(),
        r.scalar(&tm).unwrap(),
    )
}

fn check_close(what: &str, n: usize, got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol,
        "{what} (n = {n}): got {got}, want {want}, |diff| {} > tolerance {tol}",
        (got - want).abs()
    );
}

#[test]
fn f32_all_ops_match_f64_reference() {
    let mut rng = rng("f32_all_ops");
    for ctx in contexts() {
        for &n in LENGTHS {
            let data = random_f32(&mut rng, n);
            // Products of many values in [-1, 1) underflow; values near 1 keep prod meaningful.
            let near_one: Vec<f32> = (0..n).map(|_| rng.gen_range(0.999f32..1.001)).collect();
            let x = ctx.upload(&data).unwrap();
            let (s, _, lo, hi, m) = all_ops(ctx, &x);
            let sum64: f64 = data.iter().map(|&v| f64::from(v)).sum();
            let abs64: f64 = data.iter().map(|&v| f64::from(v).abs()).sum();
            let tol = f32_sum_tolerance(n, abs64, ctx.tuning());
            check_close("sum f32", n, f64::from(s), sum64, tol);
            check_close(
                "mean f32",
                n,
                f64::from(m),
                sum64 / n as f64,
                tol / n as f64 + U * (sum64 / n as f64).abs(),
            );
            let min64 = data.iter().copied().fold(f32::INFINITY, f32::min);
            let max64 = data.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(lo, min64, "min f32 n={n}");
            assert_eq!(hi, max64, "max f32 n={n}");

            let y = ctx.upload(&near_one).unwrap();
            let p = ctx
                .run(|rec| rec.prod(&y, .., false))
                .map(|v| v[0])
                .unwrap();
            let prod64: f64 = near_one.iter().map(|&v| f64::from(v)).product();
            // Every one of the n - 1 multiplications scales the product by (1 + d), |d| <= u,
            // whatever the order, so |error| <= (n - 1)u |prod| (to first order). A tighter
            // statistical bound does not hold: products of values near 1 accumulate a rounding
            // bias (a CPU simulation of the kernel's order showed -9e-4 relative at n = 2^20).
            // Dropped or doubled elements are caught by the exact product test below.
            let rel = (n as f64 - 1.0) * U * 1.01 + U;
            check_close("prod f32", n, f64::from(p), prod64, rel * prod64.abs());
        }
    }
}

#[test]
fn f32_prod_of_signs_and_powers_of_two_is_exact() {
    // Products of +-1, 2 and 0.5 are exact in any order: a dropped, doubled or unwritten
    // element changes the sign or the power of two.
    let mut rng = rng("f32_prod_exact");
    for ctx in contexts() {
        for &n in LENGTHS {
            let mut data: Vec<f32> = (0..n).map(|_| if rng.gen() { 1.0 } else { -1.0 }).collect();
            for _ in 0..n.min(64) {
                let at = rng.gen_range(0..n);
                data[at] *= if rng.gen() { 2.0 } else { 0.5 };
            }
            let want: f64 = data.iter().map(|&v| f64::from(v)).product();
            let x = ctx.upload(&data).unwrap();
            assert_eq!(
                f64::from(
                    ctx.run(|rec| rec.prod(&x, .., false))
                        .map(|v| v[0])
                        .unwrap()
                ),
                want,
                "n = {n}"
            );
        }
    }
}

#[test]
fn f32_sum_of_small_integers_is_exact() {
    // Integer-valued floats whose partial sums stay far below 2^24 are summed exactly in any
    // order, so a dropped or doubled element is caught even where the float tolerance of
    // random reals would hide it.
    let mut rng = rng("f32_exact");
    for ctx in contexts() {
        for &n in LENGTHS {
            let data: Vec<f32> = (0..n).map(|_| rng.gen_range(1..=8) as f32).collect();
            let want: f64 = data.iter().map(|&v| f64::from(v)).sum();
            assert!(want < 16_777_216.0);
            let x = ctx.upload(&data).unwrap();
            assert_eq!(
                f64::from(ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap()),
                want,
                "n = {n}"
            );
        }
    }
}

#[test]
fn i32_all_ops_match_wrapping_reference() {
    let mut rng = rng("i32_all_ops");
    for ctx in contexts() {
        for &n in LENGTHS {
            // Odd values keep the wrapping product from collapsing to 0.
            let data: Vec<i32> = random_i32(&mut rng, n).into_iter().map(|v| v | 1).collect();
            let x = ctx.upload(&data).unwrap();
            let (s, p, lo, hi, m) = all_ops(ctx, &x);
            assert_eq!(
                s,
                data.iter().fold(0i32, |a, &b| a.wrapping_add(b)),
                "sum i32 n={n}"
            );
            assert_eq!(
                p,
                data.iter().fold(1i32, |a, &b| a.wrapping_mul(b)),
                "prod i32 n={n}"
            );
            assert_eq!(lo, *data.iter().min().unwrap(), "min i32 n={n}");
            assert_eq!(hi, *data.iter().max().unwrap(), "max i32 n={n}");
            let mean64 = data.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
            let abs64: f64 = data.iter().map(|&v| f64::from(v).abs()).sum();
            // Each element is first rounded to f32 (error u·|x|), then summed as f32.
            let tol = (f32_sum_tolerance(n, abs64, ctx.tuning()) + U * abs64) / n as f64
                + U * mean64.abs();
            check_close("mean i32", n, f64::from(m), mean64, tol);
        }
    }
}

#[test]
fn u32_all_ops_match_wrapping_reference() {
    let mut rng = rng("u32_all_ops");
    for ctx in contexts() {
        for &n in LENGTHS {
            let data: Vec<u32> = random_u32(&mut rng, n).into_iter().map(|v| v | 1).collect();
            let x = ctx.upload(&data).unwrap();
            let (s, p, lo, hi, m) = all_ops(ctx, &x);
            assert_eq!(
                s,
                data.iter().fold(0u32, |a, &b| a.wrapping_add(b)),
                "sum u32 n={n}"
            );
            assert_eq!(
                p,
                data.iter().fold(1u32, |a, &b| a.wrapping_mul(b)),
                "prod u32 n={n}"
            );
            assert_eq!(lo, *data.iter().min().unwrap(), "min u32 n={n}");
            assert_eq!(hi, *data.iter().max().unwrap(), "max u32 n={n}");
            let sum64: f64 = data.iter().map(|&v| f64::from(v)).sum();
            let tol = (f32_sum_tolerance(n, sum64, ctx.tuning()) + U * sum64) / n as f64
                + U * sum64 / n as f64;
            check_close("mean u32", n, f64::from(m), sum64 / n as f64, tol);
        }
    }
}

#[test]
fn integer_extremes_and_small_values() {
    let mut rng = rng("int_extremes");
    for ctx in contexts() {
        let mut data = vec![i32::MAX, i32::MIN, 0, -1, 1];
        data.extend(random_i32(&mut rng, 1000));
        let x = ctx.upload(&data).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.min(&x, .., false)).map(|v| v[0]).unwrap(),
            i32::MIN
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
            i32::MAX
        );
        let u = ctx.upload(&[u32::MAX, 0, 7, u32::MAX - 1]).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.min(&u, .., false)).map(|v| v[0]).unwrap(),
            0
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&u, .., false)).map(|v| v[0]).unwrap(),
            u32::MAX
        );
        assert_eq!(
            ctx.run(|rec| rec.sum(&u, .., false)).map(|v| v[0]).unwrap(),
            4u32
        ); // wraps: 2^32 - 1 + 7 + 2^32 - 2
    }
}

#[test]
fn nan_propagates_through_min_and_max() {
    let mut rng = rng("nan_minmax");
    for ctx in contexts() {
        for &n in &[1usize, 5, 257, 4097, 65537] {
            let mut data = random_f32(&mut rng, n);
            let at = rng.gen_range(0..n);
            data[at] = f32::NAN;
            let x = ctx.upload(&data).unwrap();
            assert!(
                ctx.run(|rec| rec.min(&x, .., false))
                    .map(|v| v[0])
                    .unwrap()
                    .is_nan(),
                "min with NaN at {at} of {n}"
            );
            assert!(
                ctx.run(|rec| rec.max(&x, .., false))
                    .map(|v| v[0])
                    .unwrap()
                    .is_nan(),
                "max with NaN at {at} of {n}"
            );
            assert!(
                ctx.run(|rec| rec.sum(&x, .., false))
                    .map(|v| v[0])
                    .unwrap()
                    .is_nan(),
                "sum with NaN at {at} of {n}"
            );
        }
    }
}

#[test]
fn infinities() {
    for ctx in contexts() {
        let x = ctx
            .upload(&[1.0f32, f32::INFINITY, -2.0, f32::NEG_INFINITY, 3.0])
            .unwrap();
        assert_eq!(
            ctx.run(|rec| rec.min(&x, .., false)).map(|v| v[0]).unwrap(),
            f32::NEG_INFINITY
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
            f32::INFINITY
        );
        assert!(
            ctx.run(|rec| rec.sum(&x, .., false))
                .map(|v| v[0])
                .unwrap()
                .is_nan(),
            "inf + -inf is NaN"
        );
        let y = ctx.upload(&[1.0f32, f32::INFINITY, 2.0]).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.sum(&y, .., false)).map(|v| v[0]).unwrap(),
            f32::INFINITY
        );
    }
}

#[test]
fn empty_input_identities_and_errors() {
    for ctx in contexts() {
        let f = ctx.upload::<f32>(&[]).unwrap();
        let i = ctx.upload::<i32>(&[]).unwrap();
        let u = ctx.upload::<u32>(&[]).unwrap();
        assert_eq!(
            ctx.run(|rec| rec.sum(&f, .., false)).map(|v| v[0]).unwrap(),
            0.0
        );
        assert_eq!(
            ctx.run(|rec| rec.prod(&f, .., false))
                .map(|v| v[0])
                .unwrap(),
            1.0
        );
        assert_eq!(
            ctx.run(|rec| rec.sum(&i, .., false)).map(|v| v[0]).unwrap(),
            0
        );
        assert_eq!(
            ctx.run(|rec| rec.prod(&i, .., false))
                .map(|v| v[0])
                .unwrap(),
            1
        );
        assert_eq!(
            ctx.run(|rec| rec.sum(&u, .., false)).map(|v| v[0]).unwrap(),
            0
        );
        assert_eq!(
            ctx.run(|rec| rec.prod(&u, .., false))
                .map(|v| v[0])
                .unwrap(),
            1
        );
        for r in [
            ctx.run(|rec| rec.min(&f, .., false))
                .map(|v| v[0])
                .map(|_| ()),
            ctx.run(|rec| rec.max(&f, .., false))
                .map(|v| v[0])
                .map(|_| ()),
            ctx.run(|rec| rec.mean(&f, .., false))
                .map(|v| v[0])
                .map(|_| ()),
        ] {
            let e = r.unwrap_err();
            assert!(matches!(e, Error::EmptyInput { .. }), "{e}");
            assert!(e.to_string().contains("empty"), "{e}");
        }
        assert!(matches!(
            ctx.run(|rec| rec.min(&u, .., false)).map(|v| v[0]),
            Err(Error::EmptyInput { op: "min" })
        ));
        assert!(matches!(
            ctx.run(|rec| rec.mean(&i, .., false)).map(|v| v[0]),
            Err(Error::EmptyInput { op: "mean" })
        ));
    }
}

#[test]
fn results_are_bit_identical_across_runs() {
    let mut rng = rng("determinism");
    for ctx in contexts() {
        let data = random_f32(&mut rng, (1 << 20) + 3);
        let x = ctx.upload(&data).unwrap();
        let first = ctx
            .run(|rec| rec.sum(&x, .., false))
            .map(|v| v[0])
            .unwrap()
            .to_bits();
        let mean = ctx
            .run(|rec| rec.mean(&x, .., false))
            .map(|v| v[0])
            .unwrap()
            .to_bits();
        for _ in 0..4 {
            assert_eq!(
                ctx.run(|rec| rec.sum(&x, .., false))
                    .map(|v| v[0])
                    .unwrap()
                    .to_bits(),
                first
            );
            assert_eq!(
                ctx.run(|rec| rec.mean(&x, .., false))
                    .map(|v| v[0])
                    .unwrap()
                    .to_bits(),
                mean
            );
        }
    }
}

#[test]
fn every_workgroup_size_and_many_passes() {
    // Small workgroups and a small workgroup cap force three or more passes.
    let mut rng = rng("workgroup_sizes");
    for wg in wgpu_reduce::WORKGROUP_SIZES {
        for subgroups in [wgpu_reduce::Subgroups::Off, wgpu_reduce::Subgroups::Auto] {
            let ctx = Context::with_options(
                wgpu_reduce::ContextOptions::default()
                    .with_subgroups(subgroups)
                    .with_tuning({
                        let mut t = wgpu_reduce::Tuning::default();
                        t.workgroup_size = wg;
                        t.max_workgroups = 3000;
                        t
                    })
                    .with_testing(wgpu_reduce::Testing::poisoned()),
            )
            .unwrap();
            assert_eq!(ctx.tuning().workgroup_size, wg);
            for &n in &[1usize, 3, 1000, 4 * 64 * 4 * 3000 + 5, (1 << 22) + 1] {
                let data: Vec<i32> = random_i32(&mut rng, n);
                let x = ctx.upload(&data).unwrap();
                let before = ctx.stats().dispatches;
                let s = ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap();
                let passes = ctx.stats().dispatches - before;
                assert_eq!(
                    s,
                    data.iter().fold(0i32, |a, &b| a.wrapping_add(b)),
                    "wg {wg} {subgroups:?} n {n} ({passes} passes)"
                );
                let lo = ctx.run(|rec| rec.min(&x, .., false)).map(|v| v[0]).unwrap();
                assert_eq!(lo, *data.iter().min().unwrap());
            }
        }
    }
}

/// Whole-array reductions of many workgroups take one pass whose last workgroup combines the
/// others' values (`Tuning::reduce_last_group`): the same results as two passes (exact
/// for integers, within the f32 bound for floats, against the f64 reference), and with every
/// published value hidden, so that the last workgroup computes them all again, bit for bit
/// what it gives from the published ones. Every workgroup size, both workgroup steps; several
/// reductions of one recording, so that several use the context's clean states in turn, and
/// the same again in a second submission (states left unclean would give wrong results).
#[test]
fn last_workgroup_combines_in_one_pass() {
    let mut rng = rng("last_group");
    let mut checked = 0;
    for wg in wgpu_reduce::WORKGROUP_SIZES {
        for subgroups in [wgpu_reduce::Subgroups::Off, wgpu_reduce::Subgroups::Auto] {
            let make = |last_group: bool, hide: bool| {
                Context::with_options(
                    wgpu_reduce::ContextOptions::default()
                        .with_subgroups(subgroups)
                        .with_tuning({
                            let mut t = wgpu_reduce::Tuning::default();
                            t.workgroup_size = wg;
                            t.reduce_last_group = last_group;
                            t
                        })
                        .with_testing(wgpu_reduce::Testing {
                            poison_temporaries: true,
                            hide_partials: hide,
                            ..Default::default()
                        }),
                )
                .unwrap()
            };
            let (two, one, hidden) = (make(false, false), make(true, false), make(true, true));
            let n = wg as usize * 4 * 16 * 37 + 5;
            let fdata = random_f32(&mut rng, n);
            let idata = random_i32(&mut rng, n);
            let mut results = Vec::new();
            for ctx in [&two, &one, &hidden] {
                let (x, y) = (ctx.upload(&fdata).unwrap(), ctx.upload(&idata).unwrap());
                let before = ctx.stats().dispatches;
                let f = all_ops(ctx, &x);
                let passes = ctx.stats().dispatches - before;
                let want_passes = if ctx.tuning().reduce_last_group {
                    5
                } else {
                    10
                };
                assert_eq!(
                    passes, want_passes,
                    "wg {wg} {subgroups:?}: five reductions"
                );
                let again = all_ops(ctx, &x);
                assert_eq!(
                    (f.0.to_bits(), f.2.to_bits(), f.3.to_bits(), f.4.to_bits()),
                    (
                        again.0.to_bits(),
                        again.2.to_bits(),
                        again.3.to_bits(),
                        again.4.to_bits()
                    ),
                    "a second submission"
                );
                results.push((f, all_ops(ctx, &y)));
            }
            let sum_abs: f64 = fdata.iter().map(|&v| f64::from(v).abs()).sum();
            let want_sum: f64 = fdata.iter().map(|&v| f64::from(v)).sum();
            let want_min = fdata.iter().copied().fold(f32::INFINITY, f32::min);
            let want_max = fdata.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let want_isum = idata.iter().fold(0i32, |a, &b| a.wrapping_add(b));
            let want_iprod = idata.iter().fold(1i32, |a, &b| a.wrapping_mul(b));
            for (ctx, (f, i)) in [&two, &one, &hidden].iter().zip(&results) {
                let tol = f32_sum_tolerance(n, sum_abs, ctx.tuning());
                check_close("sum", n, f64::from(f.0), want_sum, tol);
                check_close(
                    "mean",
                    n,
                    f64::from(f.4),
                    want_sum / n as f64,
                    2.0 * tol / n as f64,
                );
                assert_eq!((f.2, f.3), (want_min, want_max));
                assert_eq!((i.0, i.1), (want_isum, want_iprod));
                assert_eq!(
                    (i.2, i.3),
                    (*idata.iter().min().unwrap(), *idata.iter().max().unwrap())
                );
                checked += 1;
            }
            let (one_f, hidden_f) = (results[1].0, results[2].0);
            assert_eq!(
                (one_f.0.to_bits(), one_f.1.to_bits(), one_f.4.to_bits()),
                (
                    hidden_f.0.to_bits(),
                    hidden_f.1.to_bits(),
                    hidden_f.4.to_bits()
                ),
                "wg {wg} {subgroups:?}: the values computed again give the same bits"
            );
        }
    }
    assert_eq!(checked, wgpu_reduce::WORKGROUP_SIZES.len() * 2 * 3);
}
