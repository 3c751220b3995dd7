//! Arrays larger than one storage binding: reductions cut them into pieces that each fit a
//! binding (whole arrays into runs of elements; axis reductions into runs of outer slices, or
//! into runs of rows of a long reduced axis whose states are combined). A Context option lowers
//! the binding limit to 16 KiB so every path runs on small inputs; results are checked against
//! the CPU reference (tests/common/reference.rs) like every other reduction test, on fresh
//! seeded random data, with poisoned temporaries.

mod common;

use common::run::case_always;
use common::{rng, Sweep};
use wgpu_reduce::{Context, ContextOptions, DType, Error, ReduceOp, Reduction, Scan, ScanOp};

const LIMIT: u64 = 16 << 10;

fn small_binding_ctx() -> Context {
    Context::with_options(
        ContextOptions::default().with_testing(wgpu_reduce::Testing {
            max_storage_binding_bytes: Some(LIMIT),
            poison_temporaries: true,
            ..Default::default()
        }),
    )
    .unwrap()
}

const OPS: [ReduceOp; 9] = ReduceOp::BASIC;

#[test]
fn whole_arrays_larger_than_a_binding() {
    let ctx = small_binding_ctx();
    let mut rng = rng("whole_arrays_larger_than_a_binding");
    // 4 KiB .. 400 KiB of f32: one piece, a few, and 25 (whose values need pieces again).
    let mut sweep = Sweep::new("whole arrays in pieces");
    for n in [1000, 4093, 4096 * 3 + 5, 100_003] {
        for op in OPS {
            for dtype in DType::ALL {
                if sweep.keep(format_args!("{} {dtype}", op.name()), &mut rng) {
                    case_always(&ctx, &mut rng, dtype, &[n], &Reduction::new(op));
                }
            }
        }
    }
    sweep.finish();
    // The pieces are real: 400 KB of f32 under a 16 KiB limit records one dispatch pair per
    // piece (every window is checked against the limit as it is recorded, in debug builds).
    let x = ctx.upload(&vec![0.5f32; 100_003]).unwrap();
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    assert!(
        rec.dispatch_count() >= 25,
        "{} dispatches",
        rec.dispatch_count()
    );
    let t = rec.read(&s).unwrap();
    assert_eq!(
        rec.submit().unwrap().wait().unwrap().scalar(&t).unwrap(),
        50_001.5
    );
    // More pieces than fit one binding's worth of partial values: pieces of pieces.
    case_always(
        &ctx,
        &mut rng,
        DType::F32,
        &[1_500_007],
        &Reduction::new(ReduceOp::Sum),
    );
    case_always(
        &ctx,
        &mut rng,
        DType::U32,
        &[1_500_007],
        &Reduction::new(ReduceOp::Max),
    );
}

#[test]
fn axis_reductions_larger_than_a_binding() {
    let ctx = small_binding_ctx();
    let mut rng = rng("axis_reductions_larger_than_a_binding");
    let shapes: &[(&[usize], &[&[i32]])] = &[
        // Rows of 4 KiB (f32): pieces of whole rows; columns: rows of the reduced axis
        // combined into states.
        (&[300, 1001], &[&[1], &[0]]),
        // Rows longer than a binding, reduced along themselves.
        (&[5, 70_001], &[&[1]]),
        // The middle axis of a 3-D array; two axes at once; keep the last.
        (&[6, 1000, 5], &[&[1], &[0, 2], &[0, 1]]),
        // Outputs larger than a binding (results of 16-bit sums are packed in pieces too).
        (&[50_000, 3], &[&[1]]),
    ];
    let mut sweep = Sweep::new("axis reductions in pieces");
    for (shape, axes_list) in shapes {
        for axes in *axes_list {
            for op in OPS {
                if op.is_arg() && axes.len() > 1 {
                    continue;
                }
                for dtype in [DType::F32, DType::I32, DType::F16] {
                    for keepdim in [false, true] {
                        let red = Reduction::new(op).axes(axes.to_vec()).keepdim(keepdim);
                        if sweep.keep(format_args!("{} {dtype}", op.name()), &mut rng) {
                            case_always(&ctx, &mut rng, dtype, shape, &red);
                        }
                    }
                }
            }
        }
    }
    sweep.finish();
}

#[test]
fn what_cannot_be_cut_is_a_typed_error() {
    let ctx = small_binding_ctx();
    // One row across the reduced axis (5,000 f32 = 20 KB) is larger than a binding: a piece
    // cannot hold even one row, so the reduction says so.
    let x = ctx
        .upload_shaped(&vec![1.0f32; 3 * 5000], &[3, 5000])
        .unwrap();
    let mut rec = ctx.recorder();
    let e = rec.sum(&x, 0, false).unwrap_err();
    assert!(matches!(e, Error::TooLarge { .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("one row of 5000 f32 values across the reduced axis of a sum"),
        "{msg}"
    );
    assert!(msg.contains("max_storage_buffer_binding_size"), "{msg}");
    // The other axis cuts fine.
    let rows = ctx.recorder().sum(&x, 1, false);
    assert!(rows.is_ok());
    // Scans bind their whole input: an input larger than a binding is refused.
    let big = ctx.upload(&vec![1u32; 5000]).unwrap();
    let e = ctx
        .recorder()
        .scan::<u32, u32>(&big, &Scan::new(ScanOp::Add))
        .unwrap_err();
    assert!(matches!(e, Error::TooLarge { limit: LIMIT, .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("a scan (scans bind their whole input and output)"),
        "{msg}"
    );
    assert!(msg.contains("max_storage_buffer_binding_size"), "{msg}");
}

#[test]
fn a_binding_too_small_for_any_piece_is_a_typed_error() {
    // A binding limit that leaves 16 bytes for a piece after the window alignment: not even
    // one aligned run of a whole array fits, and the reduction says so.
    let align = Context::new()
        .unwrap()
        .capabilities()
        .limits
        .min_storage_buffer_offset_alignment
        .max(16) as u64;
    let ctx = Context::with_options(
        ContextOptions::default().with_testing(wgpu_reduce::Testing {
            max_storage_binding_bytes: Some(3 * align + 16 + 16),
            ..Default::default()
        }),
    )
    .unwrap();
    let x = ctx.upload(&vec![1.0f32; 1000]).unwrap();
    let e = ctx
        .run(|rec| rec.sum(&x, .., false))
        .map(|v| v[0])
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::TooLarge {
                bytes: 32,
                limit: 16,
                ..
            }
        ),
        "{e}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains("a piece of 8 elements of a whole-array sum"),
        "{msg}"
    );
    assert!(msg.contains("less the window alignment"), "{msg}");
}
