//! Reductions along axes, argmin/argmax, var/std and 16-bit floats against the CPU reference
//! (tests/common/reference.rs: f64 for floats, wrapping 32-bit for integers, tolerances stated
//! there), on fresh seeded random inputs. Result buffers are poisoned before each run, so an
//! unwritten element shows up as NaN / u32::MAX.

mod common;

use common::reference::Data;
use common::run::{case_always, case_of};
use common::{contexts, rng, Sweep};
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::{Axes, Context, ContextOptions, DType, ReduceOp, Reduction};

const SHAPES: &[(&[usize], &[&[i32]])] = &[
    (&[5, 7], &[&[0], &[1], &[-1], &[0, 1], &[]]),
    (&[1, 100_003], &[&[0], &[1]]),
    (&[100_003, 1], &[&[0], &[1]]),
    (&[3, 65_539], &[&[0], &[1]]),
    (&[65_539, 3], &[&[0], &[1]]),
    (&[257, 1031], &[&[0], &[-1]]),
    (
        &[4, 5, 6, 7],
        &[&[0, 2], &[1, 3], &[1, 2], &[-2], &[0, 1, 2, 3], &[3, 0]],
    ),
    (
        &[2, 1, 3, 1, 2, 1, 2, 3],
        &[&[0, 2, 4, 6], &[7], &[1, 3, 5]],
    ),
    // Wide columns with several outer blocks, split and unsplit.
    (&[3, 7, 600], &[&[1], &[0, 1]]),
    (&[2, 3000, 300], &[&[1]]),
    (&[], &[&[0], &[-1], &[]]),
];

/// Every shape and axis list of `SHAPES` for `op` over `dtype`, sampled where the sweeps are cut
/// short (see common::Sweep: every operation and type still runs at least once).
fn shapes_for(op: ReduceOp, dtype: DType, ctx: &Context, rng: &mut StdRng, sweep: &mut Sweep) {
    for (shape, axes_list) in SHAPES {
        for keepdim in [false, true] {
            let mut reds = vec![Reduction::new(op).keepdim(keepdim)];
            for axes in *axes_list {
                if op.is_arg() && axes.len() > 1 {
                    continue;
                }
                reds.push(Reduction::new(op).axes(axes.to_vec()).keepdim(keepdim));
            }
            for red in reds {
                if sweep.keep(format_args!("{} {dtype}", op.name()), rng) {
                    case_always(ctx, rng, dtype, shape, &red);
                }
            }
        }
    }
}

#[test]
fn sum_prod_mean_along_axes_all_dtypes() {
    let mut rng = rng("sum_prod_mean_along_axes");
    let ctx = common::ctx();
    let mut sweep = Sweep::scaled("sum, prod, mean along axes", 0.5);
    for op in [ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Mean] {
        for dtype in DType::ALL {
            shapes_for(op, dtype, ctx, &mut rng, &mut sweep);
        }
    }
    sweep.finish();
}

#[test]
fn min_max_argmin_argmax_along_axes_all_dtypes() {
    let mut rng = rng("min_max_arg_along_axes");
    let ctx = common::ctx();
    let mut sweep = Sweep::scaled("min, max, argmin, argmax along axes", 0.5);
    for op in [
        ReduceOp::Min,
        ReduceOp::Max,
        ReduceOp::Argmin,
        ReduceOp::Argmax,
    ] {
        for dtype in DType::ALL {
            shapes_for(op, dtype, ctx, &mut rng, &mut sweep);
        }
    }
    sweep.finish();
}

#[test]
fn var_std_along_axes_all_dtypes() {
    let mut rng = rng("var_std_along_axes");
    let ctx = common::ctx();
    let mut sweep = Sweep::scaled("var, std along axes", 0.5);
    for op in [ReduceOp::Var, ReduceOp::Std] {
        for dtype in DType::ALL {
            shapes_for(op, dtype, ctx, &mut rng, &mut sweep);
        }
        for correction in [0, 2] {
            if sweep.keep(
                format_args!("{} correction {correction}", op.name()),
                &mut rng,
            ) {
                let red = Reduction::new(op).axes(1).correction(correction);
                case_always(ctx, &mut rng, DType::F32, &[6, 9], &red);
            }
        }
    }
    sweep.finish();
}

#[test]
fn whole_array_ops_with_the_fallback_workgroup_step() {
    let mut rng = rng("whole_array_fallback");
    let mut sweep = Sweep::new("whole arrays, both workgroup steps");
    for (i, ctx) in contexts().into_iter().enumerate() {
        for op in ReduceOp::BASIC {
            for dtype in DType::ALL {
                for n in [1usize, 7, 8, 9, 1025, 65_543] {
                    if sweep.keep(format_args!("{} {dtype} context {i}", op.name()), &mut rng) {
                        case_always(ctx, &mut rng, dtype, &[n], &Reduction::new(op));
                    }
                }
            }
        }
    }
    sweep.finish();
}

#[test]
fn empty_reductions() {
    let ctx = common::ctx();
    let x = ctx.upload_shaped::<f32>(&[], &[3, 0]).unwrap();
    // Sum and prod over an empty axis give their identity per output.
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, 1, false).unwrap();
    let p = rec.prod(&x, 1, true).unwrap();
    let e = rec.sum(&x, 0, false).unwrap(); // shape [0]: nothing to compute
    let (ts, tp, te) = (
        rec.read(&s).unwrap(),
        rec.read(&p).unwrap(),
        rec.read(&e).unwrap(),
    );
    let res = rec.submit().unwrap().wait().unwrap();
    assert_eq!(res.get(&ts).unwrap(), vec![0.0; 3]);
    assert_eq!(res.get(&tp).unwrap(), vec![1.0; 3]);
    assert_eq!(p.shape(), &[3, 1]);
    assert!(res.get(&te).unwrap().is_empty());
    assert_eq!(e.shape(), &[0]);
    for op in [
        ReduceOp::Min,
        ReduceOp::Max,
        ReduceOp::Mean,
        ReduceOp::Var,
        ReduceOp::Std,
        ReduceOp::Argmin,
        ReduceOp::Argmax,
    ] {
        let err = ctx
            .recorder()
            .reduce::<f32, f32>(&x, &Reduction::new(op).axes(1))
            .map(|_| ());
        let err = match op {
            ReduceOp::Argmin | ReduceOp::Argmax => ctx
                .recorder()
                .reduce::<f32, u32>(&x, &Reduction::new(op).axes(1))
                .map(|_| ()),
            _ => err,
        };
        assert!(
            matches!(err, Err(wgpu_reduce::Error::EmptyInput { .. })),
            "{op:?}: {err:?}"
        );
    }
    // Axes whose result is empty need no elements at all: no error, an empty result.
    let mut rec = ctx.recorder();
    let y = rec
        .reduce::<f32, f32>(&x, &Reduction::new(ReduceOp::Max).axes(0))
        .unwrap();
    assert_eq!(y.shape(), &[0]);
    let t = rec.read(&y).unwrap();
    assert!(rec
        .submit()
        .unwrap()
        .wait()
        .unwrap()
        .get(&t)
        .unwrap()
        .is_empty());
}

#[test]
fn axes_forms() {
    assert_eq!(Axes::from(1), Axes::List(vec![1]));
    assert_eq!(Axes::from([0, 2]), Axes::List(vec![0, 2]));
    assert_eq!(Axes::from(vec![-1]), Axes::List(vec![-1]));
    assert_eq!(Axes::from(&[3][..]), Axes::List(vec![3]));
    let r = Reduction::new(ReduceOp::Sum).axes([-1, 0]);
    assert_eq!(r.output_shape(&[2, 3, 4]).unwrap(), vec![3]);
    assert_eq!(
        r.clone().keepdim(true).output_shape(&[2, 3, 4]).unwrap(),
        vec![1, 3, 1]
    );
    assert_eq!(
        Reduction::new(ReduceOp::Sum)
            .axes(Axes::List(vec![]))
            .output_shape(&[2, 3])
            .unwrap(),
        vec![2, 3]
    );
}

/// A context with small workgroups and a tiny workgroup target takes other plans: wide column
/// tiles (outputs alone fill the "GPU"), more splits and more passes.
#[test]
fn small_workgroups_and_grid_take_the_other_plans() {
    let mut rng = rng("small_grid");
    let mut sweep = Sweep::new("small workgroups and grid");
    let ctx = Context::with_options(
        ContextOptions::default()
            .with_tuning({
                let mut t = wgpu_reduce::Tuning::default();
                t.workgroup_size = 64;
                t.max_workgroups = 4;
                t.target_workgroups = 4;
                t
            })
            .with_testing(wgpu_reduce::Testing::poisoned()),
    )
    .unwrap();
    for op in [
        ReduceOp::Sum,
        ReduceOp::Argmax,
        ReduceOp::Var,
        ReduceOp::Min,
    ] {
        for dtype in [DType::F32, DType::F16, DType::I32] {
            for (shape, axes) in [
                (&[3usize, 5000][..], &[0][..]),
                (&[4, 3, 700][..], &[1][..]),
                (&[5000, 3][..], &[1][..]),
                (&[7, 9000][..], &[1][..]),
                (&[9000, 7][..], &[0][..]),
            ] {
                if sweep.keep(format_args!("{} {dtype}", op.name()), &mut rng) {
                    let red = Reduction::new(op).axes(axes.to_vec());
                    case_always(&ctx, &mut rng, dtype, shape, &red);
                }
            }
        }
    }
    sweep.finish();
}

/// 16-bit rows of even length read whole words, two elements a load: one workgroup per row,
/// several rows per workgroup, a long row split into chunks of whole words, rows of two
/// elements; with a workgroup target of one, rows that take 64 and 32 words a thread (8 and 16
/// threads a row); and, under 64 KiB bindings, rows cut into pieces, some at odd element offsets
/// (which read one element a load). f16 draws in [-1, 1) tie often, so argmin/argmax also check
/// that the lower index of a word's two elements wins.
#[test]
fn sixteen_bit_rows_read_whole_words() {
    let mut rng = rng("sixteen_bit_rows");
    let small = Context::with_options(ContextOptions::default().with_testing(
        wgpu_reduce::Testing {
            max_storage_binding_bytes: Some(64 << 10),
            poison_temporaries: true,
            ..Default::default()
        },
    ))
    .unwrap();
    let shapes: &[[usize; 2]] = &[[8, 8192], [300, 64], [2, 1_000_002], [5, 2], [9, 16]];
    let pieces: &[[usize; 2]] = &[[3, 50_002], [5, 40_001]];
    // Target 1: 64 rows of 1024 (or 40 of 1000) fill it with 64 words a thread, 20 rows of 1024
    // with 32.
    let few = Context::with_options(
        ContextOptions::default()
            .with_tuning({
                let mut t = wgpu_reduce::Tuning::default();
                t.target_workgroups = 1;
                t
            })
            .with_testing(wgpu_reduce::Testing::poisoned()),
    )
    .unwrap();
    let long: &[[usize; 2]] = &[[64, 1024], [40, 1000], [20, 1024]];
    let cases = [
        (DType::F16, ReduceOp::Sum),
        (DType::F16, ReduceOp::Argmax),
        (DType::F16, ReduceOp::Argmin),
        (DType::F16, ReduceOp::Var),
        (DType::F16, ReduceOp::Max),
        (DType::BF16, ReduceOp::Mean),
        (DType::BF16, ReduceOp::Argmin),
    ];
    let mut checked = 0;
    for (ctx, shapes) in [(common::ctx(), shapes), (&small, pieces), (&few, long)] {
        for (dtype, op) in cases {
            for shape in shapes {
                case_always(ctx, &mut rng, dtype, shape, &Reduction::new(op).axes(1));
                checked += 1;
            }
        }
    }
    assert_eq!(
        checked,
        cases.len() * (shapes.len() + pieces.len() + long.len())
    );
}

/// Min, max, argmin and argmax along 16-bit rows of even length and over whole 16-bit arrays
/// compare 16-bit keys of both halves of a word at once: NaNs of either sign (the first wins), infinities, signed zeros
/// (equal: the lower index wins), subnormals and the largest finite values, at drawn rates, and
/// rows all -inf, all +inf, all zeros of mixed signs and all NaN, against the f64 reference.
#[test]
fn sixteen_bit_rows_compare_keys_of_special_values() {
    let mut rng = rng("sixteen_bit_row_keys");
    let ctx = common::ctx();
    let mut checked = 0;
    for dtype in [DType::F16, DType::BF16] {
        // The smallest subnormal and the largest finite value of the type.
        let (tiny, big) = if dtype == DType::F16 {
            (2f64.powi(-24), 65504.0)
        } else {
            (2f64.powi(-133), f64::from(half::bf16::MAX))
        };
        for shape in [[6usize, 40], [4, 4098], [2, 100_002], [1, 1 << 17]] {
            for rate in [0.001, 0.05, 0.5] {
                let (rows, len) = (shape[0], shape[1]);
                let mut v: Vec<f64> = (0..rows * len)
                    .map(|_| {
                        if !rng.gen_bool(rate) {
                            return rng.gen_range(-1.0..1.0);
                        }
                        match rng.gen_range(0..8) {
                            0 => f64::NAN,
                            1 => -f64::NAN,
                            2 => f64::INFINITY,
                            3 => f64::NEG_INFINITY,
                            4 => 0.0,
                            5 => -0.0,
                            6 => {
                                f64::from(rng.gen_range(1..1024))
                                    * tiny
                                    * rng.gen_range(-1..=1) as f64
                            }
                            _ => big * if rng.gen() { 1.0 } else { -1.0 },
                        }
                    })
                    .collect();
                if rows >= 4 {
                    let fill = |v: &mut Vec<f64>, r: usize, f: &dyn Fn(usize) -> f64| {
                        for (j, x) in v[r * len..(r + 1) * len].iter_mut().enumerate() {
                            *x = f(j);
                        }
                    };
                    fill(&mut v, 0, &|_| f64::NEG_INFINITY);
                    fill(&mut v, 1, &|_| f64::INFINITY);
                    fill(&mut v, 2, &|j| if j % 3 == 0 { -0.0 } else { 0.0 });
                    fill(&mut v, 3, &|_| f64::NAN);
                }
                // Exactly the values the upload stores.
                let data = Data::F(if dtype == DType::F16 {
                    v.iter()
                        .map(|&x| f64::from(half::f16::from_f64(x)))
                        .collect()
                } else {
                    v.iter()
                        .map(|&x| f64::from(half::bf16::from_f64(x)))
                        .collect()
                });
                for op in [
                    ReduceOp::Max,
                    ReduceOp::Min,
                    ReduceOp::Argmax,
                    ReduceOp::Argmin,
                ] {
                    case_of(ctx, &data, dtype, &shape, &Reduction::new(op).axes(1));
                    // The whole array (min/max: the whole-array kernel's 16-bit keys).
                    case_of(ctx, &data, dtype, &[rows * len], &Reduction::new(op));
                    checked += 2;
                }
            }
        }
    }
    assert_eq!(checked, 2 * 4 * 3 * 4 * 2);
}
