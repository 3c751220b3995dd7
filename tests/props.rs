//! Property test: random shapes (0 to 9 dimensions, empty ones included), random axes (valid,
//! out of range, repeated), keepdim, element types, operations and corrections, thrown at the
//! public API. Every call gives the reference's result (tests/common/reference.rs, tolerances
//! stated there) or the typed error the inputs call for; never a panic or a wrong answer.

mod common;

use common::reference::{check, reference, Data};
use common::run::{make_data, run, upload};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use wgpu_reduce::{Axes, DType, Error, ReduceOp, Reduction};

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
        _ => "other",
    }
}

fn shape_strategy() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        8 => prop::collection::vec(0usize..7, 0..=5),
        2 => prop::collection::vec(prop_oneof![3 => 1usize..4, 1 => 100usize..3000], 1..=3),
        1 => prop::collection::vec(1usize..3, 9..=10),
    ]
    .prop_filter("at most 20000 elements", |s| {
        s.iter().product::<usize>() <= 20_000
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_reductions_give_the_reference_or_a_typed_error(
        shape in shape_strategy(),
        axes in prop::option::of(prop::collection::vec(-6i32..6, 0..=3)),
        keepdim in any::<bool>(),
        op in prop::sample::select(ReduceOp::ALL.to_vec()),
        dtype in prop::sample::select(DType::ALL.to_vec()),
        correction in 0u32..3,
        seed in any::<u64>(),
    ) {
        let ctx = common::ctx();
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
        let want_err = expected_error(&shape, &axes, op);
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
                (Ok(_), Some(k)) => prop_assert!(false, "{}: succeeded, expected {}", what, k),
                (Err(e), None) => prop_assert!(false, "{}: unexpected error {}", what, e),
            }
        }
    }
}
