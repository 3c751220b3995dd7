//! The reductions beyond the basic nine (NaN-ignoring forms, any/all/count, logsumexp, aminmax,
//! vector norms, dot products) against the CPU reference of tests/common/reference.rs (f64 for
//! floats, wrapping 32-bit arithmetic for integers; tolerances stated there), on fresh seeded
//! random inputs drawn for each operation: NaNs for the NaN-ignoring forms, zeros (and -0.0)
//! for the counts, large values for logsumexp and the 2-norm. Result buffers are poisoned.

mod common;

use common::reference::{check, reference, reference_dot, Data};
use common::run::{case_of, make_data, nan_or_zero, upload_as, AsF64};
use common::{rng, Sweep};
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::{Axes, Context, DType, Error, Map, ReduceOp, Reduction};

/// The operations of this file: every one beyond the basic nine but dot (its own test).
fn ops() -> impl Iterator<Item = ReduceOp> {
    ReduceOp::ALL
        .into_iter()
        .filter(|op| !ReduceOp::BASIC.contains(op) && *op != ReduceOp::Dot)
}

/// Shapes and axis lists: rows, columns, short and long reduced axes, several axes, a 0-d array
/// and length-1 axes. The first of each covers several passes.
const SHAPES: &[(&[usize], &[&[i32]])] = &[
    (&[3, 65_539], &[&[1], &[0]]),
    (&[5, 7], &[&[0], &[1], &[0, 1]]),
    (&[65_539, 3], &[&[0], &[1]]),
    (&[257, 1031], &[&[0], &[-1]]),
    (&[4, 5, 6, 7], &[&[1, 3], &[0, 2]]),
    (&[2, 3000, 300], &[&[1]]),
    (&[1, 1], &[&[0]]),
    (&[], &[&[0]]),
];

/// Random input for `op`: values in [-1, 1) scaled by a power drawn per case (up to 1e4 for
/// logsumexp, 1e30 and 1e-30 for the 2-norm of f32/bf16), NaN at a rate drawn per case for the
/// NaN-ignoring forms (up to all), zeros (half of them -0.0) at a rate drawn per case for the
/// counts and the 0-norm.
fn data(rng: &mut StdRng, op: ReduceOp, dtype: DType, n: usize) -> Data {
    let wide = matches!(dtype, DType::F32 | DType::BF16);
    let scale: f64 = match op {
        ReduceOp::LogSumExp => [1.0, 30.0, if wide { 1e4 } else { 1e3 }][rng.gen_range(0..3)],
        ReduceOp::Norm2 if wide => [1.0, 1e30, 1e-30][rng.gen_range(0..3)],
        _ => 1.0,
    };
    let name = op.name();
    let nan_rate = if name.starts_with("nan") {
        [0.0, 0.2, 1.0][rng.gen_range(0..3)]
    } else {
        0.0
    };
    let zero_rate = if op.is_count() || op == ReduceOp::Norm0 {
        [0.0, 0.3, 1.0, 0.5 / n.max(1) as f64][rng.gen_range(0..4)]
    } else {
        0.0
    };
    // Each element's draws come from one generator; the integer and float closures share it.
    let r2 = std::cell::RefCell::new(rng.clone());
    let d = make_data(
        dtype,
        n,
        || {
            let mut g = r2.borrow_mut();
            nan_or_zero(&mut *g, nan_rate, zero_rate)
                .unwrap_or_else(|| g.gen_range(-1.0..1.0) * scale)
        },
        || {
            let mut g = r2.borrow_mut();
            if g.gen::<f64>() < zero_rate {
                0
            } else {
                i64::from(g.gen::<i32>())
            }
        },
    );
    *rng = r2.into_inner();
    d
}

#[test]
fn new_reductions_match_the_reference_on_every_shape_and_type() {
    let mut rng = rng("new_reductions");
    let ctx = common::ctx();
    // Every operation and type at least once, and a share of the shapes (a fresh draw each
    // run); cut short (GL), every operation at least once.
    let mut sweep = Sweep::scaled("new reductions", 0.3);
    for op in ops() {
        for dtype in DType::ALL.into_iter().filter(|&d| op.accepts(d)) {
            for (shape, axes_list) in SHAPES {
                let mut reds = vec![Reduction::new(op)];
                for axes in *axes_list {
                    if op.is_arg() && axes.len() > 1 {
                        continue;
                    }
                    let keepdim = rng.gen_bool(0.5);
                    reds.push(Reduction::new(op).axes(axes.to_vec()).keepdim(keepdim));
                }
                for mut red in reds {
                    if op == ReduceOp::NormP {
                        red.p = [0.5, 1.5, 3.0][rng.gen_range(0..3)];
                    }
                    if sweep.keep(format_args!("{} {dtype}", op.name()), &mut rng) {
                        let n: usize = shape.iter().product();
                        let d = data(&mut rng, op, dtype, n);
                        case_of(ctx, &d, dtype, shape, &red);
                    }
                }
            }
        }
    }
    sweep.finish();
}

fn dot_case<T: AsF64>(ctx: &Context, rng: &mut StdRng, shape: &[usize], axes: Axes) -> usize {
    let n: usize = shape.iter().product();
    let a = data(rng, ReduceOp::Sum, T::DTYPE, n);
    let b = data(rng, ReduceOp::Sum, T::DTYPE, n);
    let (xa, xb) = (
        upload_as::<T>(ctx, &a, shape).unwrap(),
        upload_as::<T>(ctx, &b, shape).unwrap(),
    );
    let red = Reduction::new(ReduceOp::Dot).axes(axes.clone());
    let want = reference_dot(&a, &b, shape, &red);
    let mut rec = ctx.recorder();
    let y = rec.dot(&xa, &xb, axes.clone(), false).unwrap();
    assert_eq!(y.shape(), red.output_shape(shape).unwrap().as_slice());
    let t = rec.read(&y).unwrap();
    let got: Vec<f64> = rec
        .submit()
        .unwrap()
        .wait()
        .unwrap()
        .get(&t)
        .unwrap()
        .into_iter()
        .map(AsF64::as_f64)
        .collect();
    let what = format!("dot {} shape {shape:?} axes {axes:?}", T::DTYPE);
    check(&what, ReduceOp::Dot, T::DTYPE, T::DTYPE, &got, &want);
    1
}

#[test]
fn dot_products_match_the_reference() {
    use half::{bf16, f16};
    let mut rng = rng("dot");
    let ctx = common::ctx();
    let mut sweep = Sweep::scaled("dot products", 0.5);
    let mut checked = 0;
    for (shape, axes_list) in SHAPES {
        let mut all = vec![Axes::All];
        all.extend(axes_list.iter().map(|a| Axes::List(a.to_vec())));
        for axes in all {
            for dtype in DType::ALL {
                if !sweep.keep(format_args!("dot {dtype}"), &mut rng) {
                    continue;
                }
                let (s, a) = (*shape, axes.clone());
                checked += match dtype {
                    DType::F32 => dot_case::<f32>(ctx, &mut rng, s, a),
                    DType::F16 => dot_case::<f16>(ctx, &mut rng, s, a),
                    DType::BF16 => dot_case::<bf16>(ctx, &mut rng, s, a),
                    DType::I32 => dot_case::<i32>(ctx, &mut rng, s, a),
                    _ => dot_case::<u32>(ctx, &mut rng, s, a),
                };
            }
        }
    }
    assert_eq!(checked, sweep.finish());
}

/// A million values of 1e30, and of 1e-30: the scaled 2-norm gives 1e33 and 1e-27 (an
/// unscaled sum of squares overflows to inf, or underflows to 0). Bound: the tolerance of
/// reference.rs, 2 (r + log2 r + 12) u relative.
#[test]
fn the_2_norm_neither_overflows_nor_underflows() {
    let ctx = common::ctx();
    for (v, want) in [(1e30f32, 1e33f64), (1e-30, 1e-27), (3e38, 3e41)] {
        let n = 1 << 20;
        let x = ctx.upload(&vec![v; n]).unwrap();
        let got = f64::from(
            ctx.run(|rec| rec.norm(&x, 2.0, .., false))
                .map(|v| v[0])
                .unwrap(),
        );
        let want = want * (n as f64).sqrt() / 1000.0;
        let rel = (got - want).abs() / want;
        if want > f64::from(f32::MAX) {
            assert!(got.is_infinite(), "norm of {n} x {v}: got {got}, want inf");
            continue;
        }
        let bound = 2.0 * (n as f64 + 20.0 + 12.0) * f64::from(f32::EPSILON) / 2.0;
        assert!(
            rel <= bound,
            "norm of {n} x {v}: got {got}, want {want}, relative error {rel} > {bound}"
        );
    }
}

/// The 2-norm of subnormal inputs: a million values near 1e-40 or equal to it (a norm near
/// 1e-37), alone and
/// with middle-range values, whole and along rows, and norms that are themselves subnormal. A
/// GPU that flushes subnormals (NVIDIA's) reads them as 0 in any float operation, so the kernel
/// scales them from their bits; here the squares, scaled by 2^86, are normal. Bounds (u =
/// 2^-24): a whole array, half the relative bound of an f32 sum in the context's order
/// (`Tuning::f32_sum_error_bound`) plus 3u for the square and the root; rows, the 2-norm's
/// stated 2 (r + log2 r + 12) u. Before, squares scaled by 2^64 were subnormal themselves: 6.4e-5
/// off on lavapipe, 0 on an H100.
#[test]
fn the_2_norm_of_subnormal_inputs() {
    let ctx = common::ctx();
    let mut rng = rng("2-norm of subnormals");
    let u = f64::from(f32::EPSILON) / 2.0;
    let bound = |n: usize| 2.0 * (n as f64 + (n as f64).log2() + 12.0) * u;
    let reference = |v: &[f32]| v.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>().sqrt();
    let n = 1_000_000;
    // Subnormal bits around 1e-40 (0x11700 is 1.0e-40), either sign.
    let subnormal = |rng: &mut StdRng| {
        let b =
            rng.gen_range(0x10000u32..0x13000) | if rng.gen_bool(0.5) { 0x8000_0000 } else { 0 };
        f32::from_bits(b)
    };
    let tiny: Vec<f32> = (0..n).map(|_| subnormal(&mut rng)).collect();
    let mut checked = 0;
    let mut agree = |got: f32, want: f64, what: &str, rel: f64| {
        let got = f64::from(got);
        assert!(
            (got - want).abs() <= rel * want,
            "{what}: got {got:e}, want {want:e}, relative error {:e} > {rel:e}",
            (got - want).abs() / want
        );
        checked += 1;
    };
    let want = reference(&tiny);
    assert!(want > 1e-38 && want < 1e-36, "{want}");
    let whole = 0.5 * ctx.tuning().f32_sum_error_bound(n, 1.0) + 3.0 * u;
    agree(
        ctx.run(|rec| rec.norm(&ctx.upload(&tiny).unwrap(), 2.0, .., false))
            .map(|v| v[0])
            .unwrap(),
        want,
        "10^6 subnormals",
        whole,
    );
    // One value a million times: the squares' rounding does not average out.
    let same = vec![1e-40f32; n];
    agree(
        ctx.run(|rec| rec.norm(&ctx.upload(&same).unwrap(), 2.0, .., false))
            .map(|v| v[0])
            .unwrap(),
        reference(&same),
        "10^6 x 1e-40",
        whole,
    );
    // Along rows of 1000.
    let x = ctx.upload_shaped(&tiny, &[1000, 1000]).unwrap();
    let rows = read_reduction(ctx, &x, &Reduction::norm(2.0).unwrap().axes(1));
    for (i, got) in rows.iter().enumerate().step_by(97) {
        agree(
            *got,
            reference(&tiny[i * 1000..(i + 1) * 1000]),
            &format!("row {i} of subnormals"),
            bound(1000),
        );
    }
    // Subnormals with a few middle-range values: the middle sum decides, the small one adds.
    let mut mixed = tiny.clone();
    for _ in 0..10 {
        let at = rng.gen_range(0..n);
        mixed[at] = rng.gen_range(1e-19f32..1e-18);
    }
    agree(
        ctx.run(|rec| rec.norm(&ctx.upload(&mixed).unwrap(), 2.0, .., false))
            .map(|v| v[0])
            .unwrap(),
        reference(&mixed),
        "subnormals and middle values",
        whole,
    );
    // Norms below the normal range, rounded to the nearest subnormal (half an ulp of the
    // smallest subnormal, 2^-150, besides the relative bound).
    for v in [
        vec![f32::from_bits(1)],
        vec![f32::from_bits(3); 4],
        vec![f32::from_bits(0x1000); 9],
    ] {
        let got = ctx
            .run(|rec| rec.norm(&ctx.upload(&v).unwrap(), 2.0, .., false))
            .map(|v| v[0])
            .unwrap();
        let want = reference(&v);
        let tol = bound(v.len()) * want + 2f64.powi(-150);
        assert!(
            (f64::from(got) - want).abs() <= tol,
            "{v:?}: got {got:e}, want {want:e}"
        );
        checked += 1;
    }
    assert_eq!(checked, 2 + 11 + 1 + 3);
}

/// The 2-norm of values of mixed magnitudes, drawn fresh (seeded) from the small, middle and big
/// ranges of its three sums in each combination, against sqrt of the f64 sum of squares
/// (bound: 2 (n + log2 n + 12) u relative, as above); and NaN and infinities among them.
#[test]
fn the_2_norm_of_mixed_magnitudes() {
    let ctx = common::ctx();
    let mut rng = rng("the_2_norm_of_mixed_magnitudes");
    let (small, mid, big) = (1e-30f32, 1.0f32, 1e30f32);
    let mixes: [&[f32]; 5] = [
        &[small, 1e-20],
        &[small, mid],
        &[mid, big, 1e20],
        &[small, big],
        &[small, 1e-10, mid, 1e10, big],
    ];
    let n = 100_003;
    let mut checked = 0;
    for mix in mixes {
        let v: Vec<f32> = (0..n)
            .map(|_| {
                let m = mix[rng.gen_range(0..mix.len())];
                let sign = if rng.gen::<bool>() { -1.0 } else { 1.0 };
                sign * m * rng.gen_range(0.5f32..1.0)
            })
            .collect();
        let want = v.iter().map(|&a| f64::from(a).powi(2)).sum::<f64>().sqrt();
        let got = f64::from(
            ctx.run(|rec| rec.norm(&ctx.upload(&v).unwrap(), 2.0, .., false))
                .map(|v| v[0])
                .unwrap(),
        );
        let nf = n as f64;
        let bound = 2.0 * (nf + nf.log2() + 12.0) * f64::from(f32::EPSILON) / 2.0;
        let rel = (got - want).abs() / want;
        assert!(
            rel <= bound,
            "{mix:?}: got {got}, want {want}, relative error {rel} > {bound}"
        );
        checked += 1;
    }
    assert_eq!(checked, mixes.len());
    // Along rows of whole vec4 words and of an odd length, each row a different mix.
    let mut rows_checked = 0;
    for (rows, len) in [(37, 4096), (300, 64), (5, 4098)] {
        let mut v = Vec::with_capacity(rows * len);
        for r in 0..rows {
            let mix = mixes[r % mixes.len()];
            v.extend((0..len).map(|_| {
                let sign = if rng.gen::<bool>() { -1.0 } else { 1.0 };
                sign * mix[rng.gen_range(0..mix.len())] * rng.gen_range(0.5f32..1.0)
            }));
        }
        let x = ctx.upload_shaped(&v, &[rows, len]).unwrap();
        let y = ctx
            .run(|rec| rec.reduce::<f32, f32>(&x, &Reduction::norm(2.0).unwrap().axes(1)))
            .unwrap();
        let got = y;
        let nf = len as f64;
        let bound = 2.0 * (nf + nf.log2() + 12.0) * f64::from(f32::EPSILON) / 2.0;
        for (r, row) in v.chunks(len).enumerate() {
            let want = row
                .iter()
                .map(|&a| f64::from(a).powi(2))
                .sum::<f64>()
                .sqrt();
            let rel = (f64::from(got[r]) - want).abs() / want;
            assert!(
                rel <= bound,
                "{rows} x {len}, row {r}: got {}, want {want}, relative error {rel} > {bound}",
                got[r]
            );
            rows_checked += 1;
        }
    }
    assert_eq!(rows_checked, 37 + 300 + 5);
    let (inf, nan) = (f32::INFINITY, f32::NAN);
    // Many middle values and one big one: the middle sum dominates.
    let mut v = vec![1e14f32; 100_000];
    v.push(1e15);
    let want = (1e28f64 * 100_000.0 + 1e30).sqrt();
    let got = f64::from(
        ctx.run(|rec| rec.norm(&ctx.upload(&v).unwrap(), 2.0, .., false))
            .map(|v| v[0])
            .unwrap(),
    );
    assert!(
        (got - want).abs() <= 1e-3 * want,
        "1e14 x 100000 and 1e15: got {got}, want {want}"
    );
    let specials: [(&[f32], f32); 5] = [
        (&[nan, big, small], nan),
        (&[small, nan, mid], nan),
        (&[inf, small, mid], inf),
        (&[-inf, nan], nan),
        (&[small, small], small * 2f32.sqrt()),
    ];
    for (xs, want) in specials {
        let got = ctx
            .run(|rec| rec.norm(&ctx.upload(xs).unwrap(), 2.0, .., false))
            .map(|v| v[0])
            .unwrap();
        // The same values among 40,000 zeros (the flat first pass's vec4 words, whole arrays
        // of at least 2 * 16 * workgroup size elements), at random places.
        let mut long = vec![0.0f32; 40_000];
        for &x in xs {
            let at = rng.gen_range(0..long.len());
            long[at] = x;
        }
        let got_long = ctx
            .run(|rec| rec.norm(&ctx.upload(&long).unwrap(), 2.0, .., false))
            .map(|v| v[0])
            .unwrap();
        let same = got_long == got || (got.is_nan() && got_long.is_nan());
        assert!(same, "{xs:?} among zeros: {got_long}, alone: {got}");
        if want.is_nan() {
            assert!(got.is_nan(), "{xs:?}: got {got}");
        } else if want.is_infinite() {
            assert_eq!(got, want, "{xs:?}");
        } else {
            assert!(
                (got - want).abs() <= 4.0 * f32::EPSILON * want,
                "{xs:?}: got {got}, want {want}"
            );
        }
    }
    // One NaN, +inf or -inf among 40,000 middle-range values (the flat pass's words whose other
    // three magnitudes are all in the middle range, where min and max pick the word's path).
    let mut planted = 0;
    for (x, want_nan) in [(nan, true), (inf, false), (-inf, false)] {
        for _ in 0..3 {
            let mut long: Vec<f32> = (0..40_000).map(|_| rng.gen_range(0.5f32..2.0)).collect();
            let at = rng.gen_range(0..long.len());
            long[at] = x;
            let got = ctx
                .run(|rec| rec.norm(&ctx.upload(&long).unwrap(), 2.0, .., false))
                .map(|v| v[0])
                .unwrap();
            if want_nan {
                assert!(got.is_nan(), "NaN at {at} among middle values: got {got}");
            } else {
                assert_eq!(got, f32::INFINITY, "{x} at {at} among middle values");
            }
            planted += 1;
        }
    }
    assert_eq!(planted, 9);
}

/// p-norms other than 1, 2 and inf on special values: a NaN anywhere gives NaN (WGSL leaves
/// pow of NaN undefined; lavapipe's is 0), an infinity +inf, zeros 0; alone, among 40,000 finite
/// values (several passes), along rows, and from 16-bit input.
#[test]
fn p_norms_propagate_nan_and_follow_the_special_value_rules() {
    let ctx = common::ctx();
    let mut rng = rng("p-norm special values");
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let mut checked = 0;
    for p in [0.5f32, 1.5, 3.0, 7.0] {
        let cases: [(&[f32], f64); 7] = [
            (&[1.0, nan, 2.0], f64::NAN),
            (&[nan, nan, nan], f64::NAN),
            (&[inf, nan, -inf], f64::NAN),
            (&[inf, 1.0], f64::INFINITY),
            (&[-inf, 0.0], f64::INFINITY),
            (&[0.0, -0.0], 0.0),
            (
                &[0.0, 3.0, -4.0],
                (3f64.powf(p.into()) + 4f64.powf(p.into())).powf(1.0 / f64::from(p)),
            ),
        ];
        for (xs, want) in cases {
            let agree = |got: f32, what: &str| {
                let got = f64::from(got);
                if want.is_nan() {
                    assert!(
                        got.is_nan(),
                        "norm {p} of {xs:?} {what}: got {got}, want NaN"
                    );
                } else if want.is_infinite() || want == 0.0 {
                    assert_eq!(got, want, "norm {p} of {xs:?} {what}");
                } else {
                    // A few roundings of pow and the root: 16 ulps of f32.
                    let tol = 16.0 * f64::from(f32::EPSILON) * want;
                    assert!(
                        (got - want).abs() <= tol,
                        "norm {p} of {xs:?} {what}: got {got}, want {want}"
                    );
                }
            };
            agree(
                ctx.run(|rec| rec.norm(&ctx.upload(xs).unwrap(), p, .., false))
                    .map(|v| v[0])
                    .unwrap(),
                "alone",
            );
            // Among finite values (NaN and infinities still decide; the zeros case is skipped).
            if want.is_nan() || want.is_infinite() {
                let mut long: Vec<f32> = (0..40_000).map(|_| rng.gen_range(-2.0f32..2.0)).collect();
                for &x in xs {
                    let at = rng.gen_range(0..long.len());
                    long[at] = x;
                }
                agree(
                    ctx.run(|rec| rec.norm(&ctx.upload(&long).unwrap(), p, .., false))
                        .map(|v| v[0])
                        .unwrap(),
                    "among 40,000",
                );
                // Along rows: the case in row 1 of 3, the other rows finite.
                let mut rows = vec![1.0f32; 3 * xs.len()];
                rows[xs.len()..2 * xs.len()].copy_from_slice(xs);
                let x = ctx.upload_shaped(&rows, &[3, xs.len()]).unwrap();
                let got = read_reduction(ctx, &x, &Reduction::norm(p).unwrap().axes(1));
                agree(got[1], "in row 1");
                assert!(
                    got[0].is_finite() && got[2].is_finite(),
                    "the finite rows: {got:?}"
                );
                // From f16.
                let h: Vec<half::f16> = xs.iter().map(|&x| half::f16::from_f32(x)).collect();
                agree(
                    ctx.run(|rec| rec.norm(&ctx.upload(&h).unwrap(), p, .., false))
                        .map(|v| v[0])
                        .unwrap(),
                    "from f16",
                );
                checked += 3;
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 4 * (7 + 3 * 5));
}

/// var and std with no divisor left (n <= correction): 0 / 0 is NaN and m2 / 0 is +inf, as in
/// PyTorch (WGSL leaves division by zero, and sqrt of NaN or inf, undefined: decided on the
/// bits); an infinite element gives NaN.
#[test]
fn var_and_std_without_a_divisor_and_with_infinities() {
    let ctx = common::ctx();
    let inf = f32::INFINITY;
    let cases: [(&[f32], u32, f32); 5] = [
        (&[1.0], 1, f32::NAN),
        (&[1.0, 1.0], 2, f32::NAN),
        (&[1.0, 2.0], 2, inf),
        (&[1.0, 2.0], 5, inf),
        (&[inf, 1.0, 2.0], 1, f32::NAN),
    ];
    let mut checked = 0;
    for (xs, correction, want) in cases {
        let x = ctx.upload(xs).unwrap();
        for op in [ReduceOp::Var, ReduceOp::Std] {
            let red = Reduction::new(op).correction(correction);
            let got = read_reduction(ctx, &x, &red)[0];
            let what = format!("{} of {xs:?} with correction {correction}", op.name());
            if want.is_nan() {
                assert!(got.is_nan(), "{what}: got {got}, want NaN");
            } else {
                assert_eq!(got, want, "{what}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 10);
}

/// logsumexp's special values: large inputs, -inf, +inf, NaN, empty.
#[test]
fn logsumexp_is_stable_and_follows_the_special_value_rules() {
    let ctx = common::ctx();
    let inf = f32::INFINITY;
    let cases: [(&[f32], f32); 6] = [
        (&[1e4, 1e4], 1e4 + std::f32::consts::LN_2),
        (&[-1e4, -1e4, -1e4], -1e4 + 3f32.ln()),
        (&[-inf, -inf], -inf),
        (&[1.0, inf, -inf], inf),
        (&[1.0, f32::NAN, inf], f32::NAN),
        (&[], -inf),
    ];
    for (xs, want) in cases {
        let x = ctx.upload(xs).unwrap();
        let got = ctx
            .run(|rec| rec.logsumexp(&x, .., false))
            .map(|v| v[0])
            .unwrap();
        if want.is_nan() {
            assert!(got.is_nan(), "logsumexp {xs:?}: got {got}");
        } else if want.is_infinite() {
            assert_eq!(got, want, "logsumexp {xs:?}");
        } else {
            assert!(
                (got - want).abs() <= 2e-3,
                "logsumexp {xs:?}: got {got}, want {want}"
            );
        }
    }
}

/// Counts and NaN-ignoring forms on special values: -0.0 is zero, NaN and subnormals are not;
/// all-NaN slices give NaN (u32::MAX for the indices); empty inputs follow each operation's rule.
#[test]
fn special_values_of_the_counts_and_nan_forms() {
    let ctx = common::ctx();
    let sub = f32::from_bits(1);
    let x = ctx.upload(&[0.0f32, -0.0, f32::NAN, sub, 2.0]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.count_nonzero(&x, .., false))
            .map(|v| v[0])
            .unwrap(),
        3
    );
    assert!(ctx
        .run(|rec| rec.any(&x, .., false))
        .map(|v| v[0] != 0)
        .unwrap());
    assert!(!ctx
        .run(|rec| rec.all(&x, .., false))
        .map(|v| v[0] != 0)
        .unwrap());
    assert_eq!(
        ctx.run(|rec| rec.norm(&x, 0.0, .., false))
            .map(|v| v[0])
            .unwrap()
            .to_bits(),
        3f32.to_bits()
    );
    assert_eq!(
        ctx.run(|rec| rec.nansum(&x, .., false))
            .map(|v| v[0])
            .unwrap(),
        2.0 + sub
    );
    assert!(ctx
        .run(|rec| rec.aminmax(&x, .., false))
        .map(|v| (v[0], v[1]))
        .unwrap()
        .0
        .is_nan());
    let nan = ctx.upload(&[f32::NAN; 3]).unwrap();
    assert!(ctx
        .run(|rec| rec.nanmean(&nan, .., false))
        .map(|v| v[0])
        .unwrap()
        .is_nan());
    assert_eq!(
        ctx.run(|rec| rec.nansum(&nan, .., false))
            .map(|v| v[0])
            .unwrap(),
        0.0
    );
    let mut rec = ctx.recorder();
    let (a, b) = (
        rec.nanmax(&nan, Axes::All, false).unwrap(),
        rec.nanargmin(&nan, Axes::All, false).unwrap(),
    );
    let (ta, tb) = (rec.read(&a).unwrap(), rec.read(&b).unwrap());
    let res = rec.submit().unwrap().wait().unwrap();
    assert!(res.get(&ta).unwrap()[0].is_nan());
    assert_eq!(res.get(&tb).unwrap(), vec![u32::MAX]);
    let empty = ctx.upload::<f32>(&[]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.count_nonzero(&empty, .., false))
            .map(|v| v[0])
            .unwrap(),
        0
    );
    assert!(!ctx
        .run(|rec| rec.any(&empty, .., false))
        .map(|v| v[0] != 0)
        .unwrap());
    assert!(ctx
        .run(|rec| rec.all(&empty, .., false))
        .map(|v| v[0] != 0)
        .unwrap());
    // The flags are exactly 0 or 1, empty or not.
    for (x, want) in [(&empty, [0u32, 1]), (&x, [1, 0])] {
        let mut rec = ctx.recorder();
        let (a, b) = (
            rec.any(x, Axes::All, false).unwrap(),
            rec.all(x, Axes::All, false).unwrap(),
        );
        let (ta, tb) = (rec.read(&a).unwrap(), rec.read(&b).unwrap());
        let res = rec.submit().unwrap().wait().unwrap();
        assert_eq!([res.scalar(&ta).unwrap(), res.scalar(&tb).unwrap()], want);
    }
    assert_eq!(
        ctx.run(|rec| rec.norm(&empty, 2.0, .., false))
            .map(|v| v[0])
            .unwrap(),
        0.0
    );
    assert_eq!(
        ctx.run(|rec| rec.nansum(&empty, .., false))
            .map(|v| v[0])
            .unwrap(),
        0.0
    );
    for op in [
        ReduceOp::NanMean,
        ReduceOp::NanMin,
        ReduceOp::NanArgmax,
        ReduceOp::AMinMax,
        ReduceOp::NormInf,
    ] {
        let e = ctx
            .recorder()
            .reduce::<f32, f32>(&empty, &Reduction::new(op))
            .map(|_| ());
        let e = if op.is_arg() {
            ctx.recorder()
                .reduce::<f32, u32>(&empty, &Reduction::new(op))
                .map(|_| ())
        } else {
            e
        };
        assert!(
            matches!(e, Err(Error::EmptyInput { .. })),
            "{op:?} of nothing: {e:?}"
        );
    }
}

#[test]
fn wrong_inputs_are_typed_errors() {
    let ctx = common::ctx();
    let i = ctx.upload(&[1i32, 2]).unwrap();
    let f = ctx
        .upload_shaped(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])
        .unwrap();
    let g = ctx.upload(&[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let mut rec = ctx.recorder();
    let e = rec.norm(&i, 2.0, Axes::All, false).unwrap_err();
    assert!(
        matches!(e, Error::UnsupportedInput { op: "norm2", .. }),
        "{e}"
    );
    let e = rec.norm(&f, -1.0, Axes::All, false).unwrap_err();
    assert!(
        matches!(e, Error::InvalidParameter { name: "ord", .. }),
        "{e}"
    );
    let e = rec.norm(&f, f32::NAN, 0, false).unwrap_err();
    assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
    let e = rec.dot(&f, &g, .., false).unwrap_err();
    assert!(matches!(e, Error::InputsDiffer { .. }), "{e}");
    assert!(
        e.to_string().contains("[2, 2]") && e.to_string().contains("[4]"),
        "{e}"
    );
    let e = rec
        .reduce::<f32, f32>(&f, &Reduction::new(ReduceOp::Dot))
        .unwrap_err();
    assert!(matches!(e, Error::InvalidUse(_)), "{e}");
    let e = rec.nanargmax(&f, [0, 1], false).unwrap_err();
    assert!(matches!(e, Error::UnsupportedAxes { .. }), "{e}");
    let mut bad = Reduction::new(ReduceOp::NormP);
    bad.p = -2.0;
    let e = rec.reduce::<f32, f32>(&f, &bad).unwrap_err();
    assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
    let e = rec.count_nonzero(&f, 5, false).unwrap_err();
    assert!(matches!(e, Error::AxisOutOfRange { .. }), "{e}");
}

/// The f32 value a map gives on the device, computed the same way on the CPU (IEEE operations
/// that round once each, so the reference sees exactly what the kernel reduces).
fn mapped(name: &str, d: &Data) -> Data {
    let f = |x: f32| -> f32 {
        match name {
            "abs" => x.abs(),
            "square" => x * x,
            "cube" => x * x * x,
            _ => unreachable!(),
        }
    };
    match d {
        Data::F(v) => Data::F(v.iter().map(|&x| f64::from(f(x as f32))).collect()),
        _ => unreachable!("maps take floats"),
    }
}

#[test]
fn mapped_reductions_match_the_reference() {
    let mut rng = rng("mapped");
    let ctx = common::ctx();
    let cube = Map::new("// x cubed\nfn map(x: f32) -> f32 {\n    return x * x * x;\n}").unwrap();
    ctx.check_map(&cube).unwrap();
    let maps = [
        ("abs", Map::abs()),
        ("square", Map::square()),
        ("cube", cube),
    ];
    let ops = [
        ReduceOp::Sum,
        ReduceOp::Max,
        ReduceOp::Mean,
        ReduceOp::Argmax,
        ReduceOp::Var,
        ReduceOp::NanMin,
        ReduceOp::LogSumExp,
        ReduceOp::CountNonzero,
    ];
    let mut sweep = Sweep::scaled("mapped reductions", 0.3);
    for (name, map) in &maps {
        for op in ops {
            for dtype in [DType::F32, DType::F16, DType::BF16] {
                for (shape, axes) in [
                    (&[100_003usize][..], Axes::All),
                    (&[37, 1000][..], Axes::from(1)),
                    (&[1000, 37][..], Axes::from(0)),
                    (&[4, 5, 6][..], Axes::from([0, 2])),
                ] {
                    if op.is_arg() && matches!(&axes, Axes::List(l) if l.len() > 1) {
                        continue;
                    }
                    if !sweep.keep(op.name(), &mut rng) {
                        continue;
                    }
                    let n: usize = shape.iter().product();
                    let d = data(&mut rng, op, dtype, n);
                    let inp = common::run::upload(ctx, dtype, &d, shape);
                    let red = Reduction::new(op).axes(axes.clone()).map(map);
                    let want = reference(
                        &mapped(name, &d),
                        shape,
                        &Reduction {
                            map: None,
                            ..red.clone()
                        },
                    );
                    for out in op.allowed_outputs(dtype) {
                        let what = format!(
                            "{name} then {} {dtype}->{out} {shape:?} {axes:?}",
                            op.name()
                        );
                        let (got, _) = common::run::run(ctx, &inp, &red, out)
                            .unwrap_or_else(|e| panic!("{what}: {e}"));
                        check(&what, op, dtype, out, &got, &want);
                    }
                }
            }
        }
    }
    sweep.finish();
}

#[test]
fn maps_are_checked_and_compiled_once() {
    let ctx = common::ctx();
    // A map is checked when it is made (src/ops/map.rs lists the refusals): one that reached
    // the kernel's memory or kept state across elements is refused, with its line.
    for (text, want) in [
        (
            "var <private> count: f32;\nfn map(x: f32) -> f32 { count += 1.0; return x - count; }",
            "module-scope",
        ),
        (
            "fn map(x: f32) -> f32 { return x + 33.0 * src[0u]; }",
            "line 1",
        ),
        (
            "fn map(x: f32) -> f32 {\n    let y = x;\n    return y * z;\n}",
            "line 3",
        ),
    ] {
        let e = Map::new(text).unwrap_err();
        assert!(
            matches!(&e, Error::InvalidMap { message } if message.contains(want)),
            "{text}: {e}"
        );
    }
    // A map's own variable starts afresh for every element: row sums of x - 1 on the device.
    let fresh = Map::new("fn map(x: f32) -> f32 { var c = 0.0; c += 1.0; return x - c; }").unwrap();
    ctx.check_map(&fresh).unwrap();
    let rows = ctx
        .upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], &[4, 2])
        .unwrap();
    let red = Reduction::new(ReduceOp::Sum).axes(1).map(&fresh);
    assert_eq!(read_reduction(ctx, &rows, &red), vec![1.0, 5.0, 9.0, 13.0]);
    // A map of integers, or recorded with a bad map: typed errors.
    let i = ctx.upload(&[1i32, 2]).unwrap();
    let mut rec = ctx.recorder();
    let e = rec
        .reduce::<i32, i32>(&i, &Reduction::new(ReduceOp::Sum).map(&Map::square()))
        .unwrap_err();
    assert!(matches!(e, Error::UnsupportedInput { .. }), "{e}");
    // One text, one map, one compilation per context (a context of its own: the shared one
    // counts what tests running beside this one compile).
    let ctx = &Context::new().unwrap();
    let a = Map::new("fn map(x: f32) -> f32 { return 2.0 * x; }").unwrap();
    let b = Map::new("fn map(x: f32) -> f32 { return 2.0 * x; }").unwrap();
    assert_eq!(a, b);
    let red = Reduction::new(ReduceOp::Sum).axes(0).map(&a);
    let y = ctx
        .upload_shaped(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])
        .unwrap();
    assert_eq!(read_reduction(ctx, &y, &red), vec![8.0, 12.0]);
    let before = ctx.stats().pipelines_compiled;
    let red_b = Reduction::new(ReduceOp::Sum).axes(0).map(&b);
    assert_eq!(read_reduction(ctx, &y, &red_b), vec![8.0, 12.0]);
    assert_eq!(
        ctx.stats().pipelines_compiled,
        before,
        "the same map compiled again"
    );
}

fn read_reduction(ctx: &Context, x: &wgpu_reduce::GpuArray<f32>, red: &Reduction) -> Vec<f32> {
    let mut rec = ctx.recorder();
    let y = rec.reduce::<f32, f32>(x, red).unwrap();
    let t = rec.read(&y).unwrap();
    rec.submit().unwrap().wait().unwrap().get(&t).unwrap()
}
