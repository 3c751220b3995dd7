//! Segmented reductions against the CPU reference of tests/common/reference.rs (each segment
//! reduced as a whole array; tolerances stated there), on fresh seeded random values and
//! segment lengths: millions-of-tiny-segments and few-huge-segments shapes, empty segments,
//! host and GPU offsets, and the offsets checks. Results are poisoned before each run.

mod common;

use common::reference::{check, reference, Data, Expected};
use common::run::{make_data, upload, AsF64, Input};
use common::{rng, Sweep};
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::{Context, DType, Error, GpuArray, ReduceOp, Reduction};

const OPS: [ReduceOp; 7] = [
    ReduceOp::Sum,
    ReduceOp::Prod,
    ReduceOp::Min,
    ReduceOp::Max,
    ReduceOp::Mean,
    ReduceOp::Argmin,
    ReduceOp::Argmax,
];

/// Segment lengths: `count` segments of lengths drawn from `0..=max_len` (a quarter of them
/// empty where `max_len` is small), as CSR offsets.
fn offsets(rng: &mut StdRng, count: usize, max_len: u32) -> Vec<u32> {
    let mut o = vec![0u32];
    for _ in 0..count {
        let len = if max_len < 64 && rng.gen_bool(0.25) {
            0
        } else {
            rng.gen_range(0..=max_len)
        };
        o.push(o.last().unwrap() + len);
    }
    o
}

/// The expected result of each segment: the reference over its elements, or the operation's
/// value for an empty segment.
fn expected(op: ReduceOp, dtype: DType, data: &Data, offsets: &[u32]) -> Vec<Expected> {
    offsets
        .windows(2)
        .map(|w| {
            let (a, b) = (w[0] as usize, w[1] as usize);
            let slice = match data {
                Data::F(v) => Data::F(v[a..b].to_vec()),
                Data::I32(v) => Data::I32(v[a..b].to_vec()),
                Data::U32(v) => Data::U32(v[a..b].to_vec()),
            };
            if a < b {
                return reference(&slice, &[b - a], &Reduction::new(op))[0];
            }
            let value = match (op, dtype) {
                (ReduceOp::Sum, _) => 0.0,
                (ReduceOp::Prod, _) => 1.0,
                (ReduceOp::Mean, _) => f64::NAN,
                (ReduceOp::Argmin | ReduceOp::Argmax, _) => f64::from(u32::MAX),
                (ReduceOp::Min, DType::I32) => f64::from(i32::MAX),
                (ReduceOp::Max, DType::I32) => f64::from(i32::MIN),
                (ReduceOp::Min, DType::U32) => f64::from(u32::MAX),
                (ReduceOp::Max, DType::U32) => 0.0,
                (ReduceOp::Min, _) => f64::INFINITY,
                _ => f64::NEG_INFINITY,
            };
            Expected {
                value,
                mag: 0.0,
                r: 0,
                mean: 0.0,
            }
        })
        .collect()
}

/// Records the segmented `op` of `x` as `O` with host (or GPU) offsets and reads it back.
fn run<T: AsF64, O: AsF64>(
    ctx: &Context,
    op: ReduceOp,
    x: &GpuArray<T>,
    offsets: &[u32],
    on_gpu: bool,
) -> Result<Vec<f64>, Error> {
    let mut rec = ctx.recorder();
    let y: GpuArray<O> = if on_gpu {
        let off = ctx.upload(offsets)?;
        rec.segment_reduce_gpu(x, op, &off)?
    } else {
        rec.segment_reduce(x, op, offsets)?
    };
    let t = rec.read(&y)?;
    Ok(rec
        .submit()?
        .wait()?
        .get(&t)?
        .into_iter()
        .map(AsF64::as_f64)
        .collect())
}

fn run_input(
    ctx: &Context,
    op: ReduceOp,
    inp: &Input,
    out: DType,
    offsets: &[u32],
    on_gpu: bool,
) -> Result<Vec<f64>, Error> {
    macro_rules! with {
        ($x:expr) => {
            match out {
                DType::F32 => run::<_, f32>(ctx, op, $x, offsets, on_gpu),
                DType::F16 => run::<_, half::f16>(ctx, op, $x, offsets, on_gpu),
                DType::BF16 => run::<_, half::bf16>(ctx, op, $x, offsets, on_gpu),
                DType::I32 => run::<_, i32>(ctx, op, $x, offsets, on_gpu),
                _ => run::<_, u32>(ctx, op, $x, offsets, on_gpu),
            }
        };
    }
    match inp.dtype {
        DType::F32 => with!(inp.f32.as_ref().unwrap()),
        DType::F16 => with!(inp.f16.as_ref().unwrap()),
        DType::BF16 => with!(inp.bf16.as_ref().unwrap()),
        DType::I32 => with!(inp.i32.as_ref().unwrap()),
        _ => with!(inp.u32.as_ref().unwrap()),
    }
}

#[test]
fn segmented_reductions_match_the_reference() {
    let mut rng = rng("segments");
    let ctx = common::ctx();
    let mut sweep = Sweep::new("segmented reductions");
    // (segments, longest segment): many tiny, a few mid-size, a few huge (cut into chunks),
    // one segment, none.
    let kinds = [
        (20_000usize, 12u32),
        (300, 700),
        (3, 90_000),
        (1, 5),
        (0, 0),
    ];
    for op in OPS {
        for dtype in DType::ALL {
            for (count, max_len) in kinds {
                for on_gpu in [false, true] {
                    if !sweep.keep(op.name(), &mut rng) {
                        continue;
                    }
                    let off = offsets(&mut rng, count, max_len);
                    let n = *off.last().unwrap() as usize + rng.gen_range(0..3);
                    let near_one = op == ReduceOp::Prod;
                    let mut r2 = rng.clone();
                    let data = make_data(
                        dtype,
                        n,
                        || {
                            if near_one {
                                r2.gen_range(0.99..1.01)
                            } else {
                                r2.gen_range(-1.0..1.0)
                            }
                        },
                        || i64::from(rng.gen::<i32>()),
                    );
                    rng = r2;
                    let inp = upload(ctx, dtype, &data, &[n]);
                    let want = expected(op, dtype, &data, &off);
                    for out in op.allowed_outputs(dtype) {
                        let what = format!("segmented {} {dtype}->{out}: {count} segments up to {max_len}, gpu offsets {on_gpu}", op.name());
                        let got = run_input(ctx, op, &inp, out, &off, on_gpu)
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
fn bad_offsets_are_typed_errors_on_the_host_and_on_the_gpu() {
    let ctx = common::ctx();
    let x = ctx.upload(&[1.0f32; 10]).unwrap();
    let cases: [(&[u32], usize); 5] = [
        (&[0, 2, 5, 4, 10], 2),
        (&[0, 3, 11], 1),
        (&[0, 10, 12, 12], 1),
        // A lone offset past the end (no segment), and a first one past it.
        (&[11], 0),
        (&[11, 11], 0),
    ];
    for (off, segment) in cases {
        let mut rec = ctx.recorder();
        let e = rec
            .segment_reduce::<f32, f32>(&x, ReduceOp::Sum, off)
            .unwrap_err();
        assert!(
            matches!(e, Error::InvalidOffsets { segment: s, .. } if s == segment),
            "{off:?}: {e}"
        );
        // On the GPU: the flag read with the results.
        let e = run::<f32, f32>(ctx, ReduceOp::Sum, &x, off, true).unwrap_err();
        assert!(
            matches!(e, Error::InvalidOffsets { segment: s, .. } if s == segment),
            "{off:?} on the GPU: {e}"
        );
    }
    let mut rec = ctx.recorder();
    let e = rec
        .segment_reduce::<f32, f32>(&x, ReduceOp::Sum, &[])
        .unwrap_err();
    assert!(matches!(e, Error::InvalidOffsets { .. }), "{e}");
    let e = rec
        .segment_reduce::<f32, f32>(&x, ReduceOp::Var, &[0, 10])
        .unwrap_err();
    assert!(
        matches!(e, Error::InvalidParameter { name: "op", .. }),
        "{e}"
    );
    let e = rec
        .segment_reduce::<f32, u32>(&x, ReduceOp::Sum, &[0, 10])
        .unwrap_err();
    assert!(matches!(e, Error::UnsupportedOutput { .. }), "{e}");
    // GPU offsets need the check's flag read at wait: not into a caller's encoder.
    let off = ctx.upload(&[0u32, 4, 10]).unwrap();
    let mut rec = ctx.recorder();
    let _ = rec
        .segment_reduce_gpu::<f32, f32>(&x, ReduceOp::Sum, &off)
        .unwrap();
    let mut enc = ctx.device().create_command_encoder(&Default::default());
    assert!(matches!(
        rec.record_into(&mut enc),
        Err(Error::InvalidUse(_))
    ));
    // A lone offset past the end says which offset and how many values there are.
    let e = ctx
        .recorder()
        .segment_reduce::<f32, f32>(&x, ReduceOp::Sum, &[11])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("offsets[0] = 11 is past the end of 10 values"),
        "{e}"
    );
    // A lone offset at the end: no segment, no error, both ways.
    for on_gpu in [false, true] {
        assert_eq!(
            run::<f32, f32>(ctx, ReduceOp::Sum, &x, &[10], on_gpu).unwrap(),
            Vec::<f64>::new()
        );
    }
    // Valid GPU offsets: no error, and the sums.
    assert_eq!(
        run::<f32, f32>(ctx, ReduceOp::Sum, &x, &[0, 4, 10], true).unwrap(),
        vec![4.0, 6.0]
    );
}

/// A piece of a skewed layout: `count` short segments (0..=3 elements), or one long one.
#[derive(Clone, Copy, Debug)]
enum Piece {
    Short(usize),
    Long(u32),
}

fn layout(rng: &mut StdRng, pieces: &[Piece]) -> Vec<u32> {
    let mut o = vec![0u32];
    for p in pieces {
        let lens: Vec<u32> = match *p {
            Piece::Short(count) => (0..count).map(|_| rng.gen_range(0..=3)).collect(),
            Piece::Long(len) => vec![len],
        };
        for len in lens {
            o.push(o.last().unwrap() + len);
        }
    }
    o
}

/// Long segments among many short ones, with both offset sources, for every operation. A group
/// of lanes that walked a whole long segment ran past 65,535 loop iterations, where llvmpipe
/// (lavapipe, GL) ends every loop of the invocation: layouts on both sides of that, a long
/// segment first, last, and two side by side.
#[test]
fn skewed_segments_match_the_reference() {
    use Piece::{Long, Short};
    let mut rng = rng("skewed segments");
    let ctx = common::ctx();
    let mut sweep = Sweep::new("skewed segmented reductions");
    let layouts: [&[Piece]; 6] = [
        &[Short(8_000), Long(1 << 20), Short(8_000)],
        &[Short(16_500), Long(1 << 20), Short(16_500)],
        &[Short(50_000), Long(1 << 20), Short(50_000)],
        &[Long(3 << 19), Short(40_000)],
        &[Short(40_000), Long((1 << 20) + 5)],
        &[
            Short(30_000),
            Long(300_001),
            Long(700_000),
            Short(30_000),
            Long(5_000),
            Short(10),
        ],
    ];
    let mut checked = 0;
    for (o, op) in OPS.into_iter().enumerate() {
        for (l, pieces) in layouts.iter().enumerate() {
            for on_gpu in [false, true] {
                let dtype = DType::ALL[(o + l) % DType::ALL.len()];
                if !sweep.keep(format!("{} {dtype}", op.name()), &mut rng) {
                    continue;
                }
                let off = layout(&mut rng, pieces);
                let n = *off.last().unwrap() as usize;
                let mut r2 = rng.clone();
                let data = make_data(
                    dtype,
                    n,
                    || match op {
                        ReduceOp::Prod => r2.gen_range(0.9995..1.0005),
                        _ => r2.gen_range(-1.0..1.0),
                    },
                    || i64::from(rng.gen::<i32>()),
                );
                rng = r2;
                let inp = upload(ctx, dtype, &data, &[n]);
                let want = expected(op, dtype, &data, &off);
                for out in op.allowed_outputs(dtype) {
                    let what = format!(
                        "skewed segmented {} {dtype}->{out}: {pieces:?}, gpu offsets {on_gpu}",
                        op.name()
                    );
                    let got = run_input(ctx, op, &inp, out, &off, on_gpu)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    check(&what, op, dtype, out, &got, &want);
                    checked += 1;
                }
            }
        }
    }
    let cases = sweep.finish();
    assert!(
        checked >= cases,
        "{checked} results checked in {cases} cases"
    );
}
