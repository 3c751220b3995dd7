//! Accuracy and determinism of float reductions.
//!
//! Accuracy: the f32 sum of 2^24 random values against an f64 reference, compared with a naive
//! sequential f32 loop over the same data; the measured relative errors are printed (and quoted
//! in the crate docs), and the test asserts the library's stated bound and that the kernel's
//! tree order beats the sequential loop's expected error. (The loop's error on one draw is a
//! random walk of roundings and lands near zero now and then, so it is printed, not compared.)
//!
//! Determinism: the same input on the same device gives bit-identical results on every run
//! (no float atomics; the order of combination depends only on the shape and the tuning).

mod common;

use common::{contexts, rng};
use half::f16;
use rand::Rng;
use wgpu_reduce::{Context, Element, GpuArray, ReduceOp, Reduction};

#[test]
fn f32_sum_of_2_pow_24_values_is_far_below_the_sequential_error() {
    let mut rng = rng("sum_accuracy");
    let n = 1 << 24;
    // Positive values, so the relative error of the sum is the meaningful figure.
    let data: Vec<f32> = (0..n).map(|_| rng.gen_range(0.0f32..1.0)).collect();
    let exact: f64 = data.iter().map(|&v| f64::from(v)).sum();
    // The sequential loop, and the variance of its rounding errors: each addition rounds to the
    // spacing of its result, an error spread evenly over half a spacing either way (variance
    // spacing^2 / 12) for values drawn evenly at random.
    let (naive, naive_var) = data.iter().fold((0f32, 0f64), |(a, var), &v| {
        let s = a + v;
        let spacing = f64::from(f32::from_bits(s.to_bits() + 1) - s);
        (s, var + spacing * spacing / 12.0)
    });
    let naive_rel = (f64::from(naive) - exact).abs() / exact;
    let naive_expected = naive_var.sqrt() / exact;
    for ctx in contexts() {
        let x = ctx.upload(&data).unwrap();
        let s = ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap();
        let rel = (f64::from(s) - exact).abs() / exact;
        let bound = ctx.tuning().f32_sum_error_bound(n, exact) / exact;
        eprintln!(
            "sum of 2^24 uniform [0,1) f32 (subgroups {}): relative error {rel:.2e} \
             (stated bound {bound:.2e}); naive sequential f32 loop {naive_rel:.2e} \
             (expected {naive_expected:.2e})",
            ctx.tuning().subgroups
        );
        assert!(
            rel <= bound,
            "relative error {rel:e} above the stated bound {bound:e}"
        );
        assert!(
            rel * 10.0 < naive_expected,
            "tree order {rel:e} not well below the sequential loop's expected {naive_expected:e}"
        );
        // The same along rows of a [16, 2^20] view (rows layout, split rows).
        let x2 = x.reshape(&[16, 1 << 20]).unwrap();
        let y = ctx
            .run(|rec| rec.reduce::<f32, f32>(&x2, &Reduction::new(ReduceOp::Sum).axes(1)))
            .unwrap();
        for (r, v) in y.into_iter().enumerate() {
            let row = &data[r << 20..(r + 1) << 20];
            let e: f64 = row.iter().map(|&v| f64::from(v)).sum();
            let b = ctx.tuning().f32_sum_error_bound(1 << 20, e) / e;
            let rel = (f64::from(v) - e).abs() / e;
            assert!(rel <= b, "row {r}: relative error {rel:e} > {b:e}");
        }
    }
}

fn bits<T: Element>(ctx: &Context, x: &GpuArray<T>, red: &Reduction) -> Vec<u32> {
    let mut rec = ctx.recorder();
    let y = rec.reduce::<T, f32>(x, red);
    let out: Vec<u32> = match y {
        Ok(y) => {
            let t = rec.read(&y).unwrap();
            let r = rec.submit().unwrap().wait().unwrap();
            r.get(&t).unwrap().iter().map(|v| v.to_bits()).collect()
        }
        Err(_) => {
            // Arg ops return indices.
            let mut rec = ctx.recorder();
            let y = rec.reduce::<T, u32>(x, red).unwrap();
            let t = rec.read(&y).unwrap();
            rec.submit().unwrap().wait().unwrap().get(&t).unwrap()
        }
    };
    out
}

/// A name, the first run's bits, and a closure that runs it again.
type Case<'a> = (String, Vec<u32>, Box<dyn Fn() -> Vec<u32> + 'a>);

#[test]
fn float_reductions_are_bit_identical_across_runs() {
    let mut rng = rng("determinism");
    let n = (1 << 20) + 3;
    let data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
    let h: Vec<f16> = data.iter().map(|&v| f16::from_f32(v)).collect();
    for ctx in contexts() {
        let x = ctx.upload(&data).unwrap();
        let xh = ctx.upload(&h).unwrap();
        let views: Vec<(&str, Vec<usize>, wgpu_reduce::Axes)> = vec![
            ("whole", vec![n], wgpu_reduce::Axes::All),
            ("rows", vec![1, n], 1.into()),
            ("cols", vec![n, 1], 0.into()),
        ];
        let m = ctx
            .upload_shaped(&data[..1000 * 1037], &[1000, 1037])
            .unwrap();
        for op in ReduceOp::ALL {
            if !op.is_arg()
                && !matches!(
                    op,
                    ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Var | ReduceOp::Std | ReduceOp::Prod
                )
            {
                continue;
            }
            // A seeded share of the operations where the sweeps are cut short (GL in CI); the sum
            // always, so the test never checks nothing.
            if op != ReduceOp::Sum && !common::keep_case(&mut rng) {
                continue;
            }
            let mut cases: Vec<Case> = Vec::new();
            for (name, shape, axes) in &views {
                let red = Reduction::new(op).axes(axes.clone());
                let xv = x.reshape(shape).unwrap();
                let xhv = xh.reshape(shape).unwrap();
                let (r1, r2) = (red.clone(), red.clone());
                cases.push((
                    format!("{name} f32"),
                    bits(ctx, &xv, &red),
                    Box::new(move || bits(ctx, &xv, &r1)),
                ));
                cases.push((
                    format!("{name} f16"),
                    bits(ctx, &xhv, &red),
                    Box::new(move || bits(ctx, &xhv, &r2)),
                ));
            }
            for axis in [0, 1] {
                let red = Reduction::new(op).axes(axis);
                let mv = m.clone();
                let r1 = red.clone();
                cases.push((
                    format!("1000x1037 axis {axis}"),
                    bits(ctx, &m, &red),
                    Box::new(move || bits(ctx, &mv, &r1)),
                ));
            }
            for (name, first, again) in &cases {
                for run in 0..4 {
                    assert_eq!(
                        &again(),
                        first,
                        "{} {name}: run {run} differs from the first",
                        op.name()
                    );
                }
            }
        }
    }
}
