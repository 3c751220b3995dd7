//! Property tests: random shapes (0 to 10 dimensions, empty ones included), random axes (valid,
//! out of range, repeated), keepdim, element types, every operation of one input (the basic
//! nine and NaN-ignoring forms, counts, logsumexp, aminmax, norms), corrections, scan directions
//! and algorithms, output arrays of random lengths, and a context whose storage bindings are
//! only 16 KiB (so reductions are cut into pieces), thrown at the public API. Every call gives
//! the reference's result (tests/common/reference.rs and scan_ref.rs, tolerances stated there)
//! or the typed error the inputs call for; never a panic or a wrong answer.

mod common;

use std::sync::OnceLock;

use common::reference::{check, reference, Data};
use common::run::{make_data, run, run_scan, upload};
use common::scan_ref::{check_scan, scan_reference};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use wgpu_reduce::{
    Axes, Context, ContextOptions, DType, Error, ReduceOp, Reduction, Scan, ScanAlgorithm, ScanOp,
};

/// A context whose storage bindings hold 16 KiB: larger inputs are reduced in pieces, and the
/// few shapes that cannot be cut that small give `TooLarge`.
fn small_binding_ctx() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(|| {
        Context::with_options(
            ContextOptions::default().with_testing(wgpu_reduce::Testing {
                max_storage_binding_bytes: Some(16 << 10),
                poison_temporaries: true,
                ..Default::default()
            }),
        )
        .unwrap()
    })
}

/// The error a scan of `shape` along `axis` calls for.
fn expected_scan_error(shape: &[usize], axis: i32) -> Option<&'static str> {
    let dims = shape.len().max(1) as i32;
    let a = if axis < 0 { axis + dims } else { axis };
    if a < 0 || a >= dims {
        return Some("AxisOutOfRange");
    }
    (a != dims - 1).then_some("UnsupportedAxes")
}

/// The error the inputs call for, decided independently of the library's own checks.
fn expected_error(shape: &[usize], axes: &Option<Vec<i32>>, op: ReduceOp) -> Option<&'static str> {
    let ndim = shape.len();
    if ndim > 8 {
        return Some("TooManyDims");
    }
    let mut reduced = vec![false; ndim];
    if let Some(list) = axes {
        let n = ndim.max(1) as i32;
        for &a in list {
            let norm = if a < 0 { a + n } else { a };
            if norm < 0 || norm >= n {
                return Some("AxisOutOfRange");
            }
            if ndim > 0 {
                if reduced[norm as usize] {
                    return Some("DuplicateAxis");
                }
                reduced[norm as usize] = true;
            }
        }
        if op.is_arg() && list.len() > 1 {
            return Some("UnsupportedAxes");
        }
    } else {
        reduced = vec![true; ndim];
    }
    let out_len: usize = shape
        .iter()
        .zip(&reduced)
        .filter(|(_, &m)| !m)
        .map(|(&d, _)| d)
        .product();
    let r: usize = shape
        .iter()
        .zip(&reduced)
        .filter(|(_, &m)| m)
        .map(|(&d, _)| d)
        .product();
    if out_len > 0 && r == 0 && !op.has_identity() {
        return Some("EmptyInput");
    }
    None
}

fn kind(e: &Error) -> &'static str {
    match e {
        Error::TooManyDims { .. } => "TooManyDims",
        Error::AxisOutOfRange { .. } => "AxisOutOfRange",
        Error::DuplicateAxis { .. } => "DuplicateAxis",
        Error::UnsupportedAxes { .. } => "UnsupportedAxes",
        Error::EmptyInput { .. } => "EmptyInput",
        Error::TooLarge { .. } => "TooLarge",
        Error::ShapeMismatch { .. } => "ShapeMismatch",
        Error::InvalidUse(_) => "InvalidUse",
        Error::UnsupportedInput { .. } => "UnsupportedInput",
        _ => "other",
    }
}

fn shape_strategy() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        8 => prop::collection::vec(0usize..7, 0..=5),
        // Short, long, and long of whole vec4 words (rows the flat first pass takes).
        2 => prop::collection::vec(
            prop_oneof![3 => 1usize..4, 1 => 100usize..3000, 1 => (16usize..750).prop_map(|k| 4 * k)],
            1..=3
        ),
        1 => prop::collection::vec(1usize..3, 9..=10),
    ]
    .prop_filter("at most 20000 elements", |s| {
        s.iter().product::<usize>() <= 20_000
    })
}

proptest! {
    // 160 cases per property (fewer where the sweeps are cut short: see common::sweep_fraction).
    #![proptest_config(ProptestConfig {
        cases: (160.0 * common::sweep_fraction()).ceil() as u32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_reductions_give_the_reference_or_a_typed_error(
        shape in shape_strategy(),
        axes in prop::option::of(prop::collection::vec(-6i32..6, 0..=3)),
        keepdim in any::<bool>(),
        // Every operation of one input (a dot product has its own recorder method).
        op in prop::sample::select(ReduceOp::ALL.into_iter().filter(|&o| o != ReduceOp::Dot).collect::<Vec<_>>()),
        dtype in prop::sample::select(DType::ALL.to_vec()),
        correction in 0u32..3,
        small_bindings in prop::bool::weighted(0.25),
        seed in any::<u64>(),
    ) {
        let ctx = if small_bindings { small_binding_ctx() } else { common::ctx() };
        let n: usize = shape.iter().product();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut r2 = rand::rngs::StdRng::seed_from_u64(seed ^ 1);
        let near_one = op == ReduceOp::Prod;
        let data: Data = make_data(
            dtype,
            n,
            || if near_one { rng.gen_range(0.9..1.1) } else { rng.gen_range(-4.0..4.0) },
            || i64::from(r2.gen::<i32>()),
        );
        let inp = upload(ctx, dtype, &data, &shape);
        let mut red = Reduction::new(op).keepdim(keepdim).correction(correction);
        if let Some(list) = &axes {
            red = red.axes(Axes::List(list.clone()));
        }
        let want_err = match expected_error(&shape, &axes, op) {
            // The axes are checked first (the result's shape), then the input type.
            Some("EmptyInput") | None if !op.accepts(dtype) => Some("UnsupportedInput"),
            other => other,
        };
        if std::env::var("PROPS_TRACE").is_ok() {
            eprintln!("case: {} {dtype} {shape:?} {axes:?} -> {want_err:?}", op.name());
        }
        for out in op.allowed_outputs(dtype) {
            let what = format!("{} {dtype}->{out} shape {shape:?} axes {axes:?} keepdim {keepdim} seed {seed}", op.name());
            match (run(ctx, &inp, &red, out), want_err) {
                (Ok((got, got_shape)), None) => {
                    prop_assert_eq!(&got_shape, &red.output_shape(&shape).unwrap(), "{}", what);
                    let want = reference(&data, &shape, &red);
                    check(&what, op, dtype, out, &got, &want);
                }
                (Err(e), Some(k)) => {
                    prop_assert_eq!(kind(&e), k, "{}: {}", what, e);
                    prop_assert!(!e.to_string().is_empty());
                }
                // Under 16 KiB bindings, a reduction whose one row across the reduced axis
                // does not fit a piece cannot be cut: the error names the binding limit.
                (Err(e @ Error::TooLarge { .. }), None) if small_bindings => {
                    prop_assert!(e.to_string().contains("max_storage_buffer_binding_size"), "{}", e);
                }
                (Ok(_), Some(k)) => prop_assert!(false, "{}: succeeded, expected {}", what, k),
                (Err(e), None) => prop_assert!(false, "{}: unexpected error {}", what, e),
            }
        }
    }

    #[test]
    fn random_scans_give_the_reference_or_a_typed_error(
        shape in shape_strategy(),
        axis in prop_oneof![3 => Just(-1i32), 1 => -6i32..6],
        op in prop::sample::select(vec![ScanOp::Add, ScanOp::Min, ScanOp::Max]),
        exclusive in any::<bool>(),
        dtype in prop::sample::select(DType::ALL.to_vec()),
        algorithm in prop::sample::select(vec![
            ScanAlgorithm::Auto,
            ScanAlgorithm::ReduceThenScan,
            ScanAlgorithm::DecoupledFallback,
        ]),
        seed in any::<u64>(),
    ) {
        let ctx = common::ctx();
        let n: usize = shape.iter().product();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut r2 = rand::rngs::StdRng::seed_from_u64(seed ^ 1);
        let data: Data = make_data(
            dtype,
            n,
            || rng.gen_range(-4.0..4.0),
            || i64::from(r2.gen::<i32>()),
        );
        let inp = upload(ctx, dtype, &data, &shape);
        let scan = Scan::new(op).exclusive(exclusive).axis(axis).algorithm(algorithm);
        let what = format!("{op:?} exclusive {exclusive} {dtype} shape {shape:?} axis {axis} {algorithm:?} seed {seed}");
        match (run_scan(ctx, &inp, &scan), expected_scan_error(&shape, axis)) {
            (Ok(got), None) => {
                let len = shape.last().copied().unwrap_or(1);
                let rows = n.checked_div(len).unwrap_or(0);
                let want = scan_reference(&data, rows, len, op, exclusive);
                check_scan(&what, op, op.output(dtype), &got, &want, ctx.scan_tile(), false);
            }
            (Err(e), Some(k)) => {
                prop_assert_eq!(kind(&e), k, "{}: {}", what, e);
                prop_assert!(e.to_string().contains("axis"), "{}", e);
            }
            (Ok(_), Some(k)) => prop_assert!(false, "{}: succeeded, expected {}", what, k),
            (Err(e), None) => prop_assert!(false, "{}: unexpected error {}", what, e),
        }
    }

    #[test]
    fn random_shapes_and_output_lengths_are_checked(
        len in 0usize..50,
        shape in prop::collection::vec(0usize..8, 0..=4),
        out_len in 0usize..50,
        seed in any::<u64>(),
    ) {
        let ctx = common::ctx();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let data: Vec<f32> = (0..len).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let fits = shape.iter().product::<usize>() == len;
        // upload_shaped: the shape must hold exactly the data.
        match ctx.upload_shaped(&data, &shape) {
            Ok(x) => {
                prop_assert!(fits);
                prop_assert_eq!(ctx.read(&x).unwrap(), data.clone());
            }
            Err(e) => {
                prop_assert!(!fits);
                prop_assert_eq!(kind(&e), "ShapeMismatch", "{}", e);
            }
        }
        // reshape: the same element count.
        let flat = ctx.upload(&data).unwrap();
        match flat.reshape(&shape) {
            Ok(y) => prop_assert!(fits && y.shape() == &shape[..]),
            Err(e) => prop_assert!(!fits && kind(&e) == "ShapeMismatch", "{}", e),
        }
        // Outputs of a caller's length: sums along the last axis, and scans.
        let x = ctx.upload_shaped(&data, &[len]).unwrap();
        let out = ctx.upload(&vec![f32::NAN; out_len]).unwrap();
        let mut rec = ctx.recorder();
        let scanned = rec.scan_into(&x, &Scan::new(ScanOp::Add), &out);
        prop_assert_eq!(scanned.is_ok(), out_len == len, "scan_to {} into {}", len, out_len);
        if let Err(e) = scanned {
            prop_assert_eq!(kind(&e), "InvalidUse", "{}", e);
            prop_assert!(e.to_string().contains(&format!("the output array has {out_len}")), "{}", e);
        }
        let red = Reduction::new(ReduceOp::Sum);
        let reduced = rec.reduce_into(&x, &red, &out);
        prop_assert_eq!(reduced.is_ok(), out_len == 1, "reduce_into {} -> {}", len, out_len);
        if let Err(e) = reduced {
            prop_assert_eq!(kind(&e), "InvalidUse", "{}", e);
        }
        rec.submit().unwrap().wait().unwrap();
        if out_len == 1 {
            let want: f64 = data.iter().map(|&v| f64::from(v)).sum();
            let got = f64::from(ctx.read(&out).unwrap()[0]);
            prop_assert!((got - want).abs() <= 1e-5, "sum {} vs {}", got, want);
        }
    }
}
