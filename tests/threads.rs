//! One Context shared by many threads: every result correct, no deadlock, no lost map callback
//! (when several threads poll one device, a thread's map callback may be delivered by another
//! thread's poll; an early version returned before it arrived).

mod common;

use common::{random_i32, rng};
use rand::Rng;
use std::sync::Arc;

#[test]
fn threads_share_one_context() {
    let ctx = Arc::new(common::ctx().clone());
    let mut seed_rng = rng("threads");
    let seeds: Vec<u64> = (0..8).map(|_| seed_rng.gen()).collect();
    let handles: Vec<_> = seeds
        .into_iter()
        .map(|seed| {
            let ctx = Arc::clone(&ctx);
            std::thread::spawn(move || {
                use rand::SeedableRng;
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                for i in 0..60 {
                    let n = rng.gen_range(1..20_000);
                    let data = random_i32(&mut rng, n);
                    let x = ctx.upload(&data).unwrap();
                    match i % 3 {
                        0 => assert_eq!(
                            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
                            data.iter().fold(0i32, |a, &b| a.wrapping_add(b))
                        ),
                        1 => assert_eq!(
                            ctx.run(|rec| rec.min(&x, .., false)).map(|v| v[0]).unwrap(),
                            *data.iter().min().unwrap()
                        ),
                        _ => assert_eq!(ctx.read(&x).unwrap(), data),
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a worker thread panicked");
    }
}

#[test]
fn context_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<wgpu_reduce::Context>();
    assert_send_sync::<wgpu_reduce::GpuArray<f32>>();
    assert_send_sync::<wgpu_reduce::Recorder>();
}

/// Sum, min, argmax and column sums of one input.
type Expected = (i32, i32, u32, Vec<i32>);

/// Eight threads x 1000 mixed reductions (whole arrays and axes, several ops and element
/// types, blocking calls and batched recordings) on one Context: every result exact, no
/// deadlock.
#[test]
fn eight_threads_times_1000_mixed_reductions() {
    use wgpu_reduce::{ReduceOp, Reduction};
    let ctx = Arc::new(common::ctx().clone());
    let mut seed_rng = rng("threads_8x1000");
    // Shared inputs (small integers, so every op below is exact), uploaded once.
    let shapes: [&[usize]; 4] = [&[257, 9], &[3, 4001], &[64, 64], &[10_007]];
    let data: Vec<Vec<i32>> = shapes
        .iter()
        .map(|s| {
            (0..s.iter().product::<usize>())
                .map(|_| seed_rng.gen_range(-1000..1000))
                .collect()
        })
        .collect();
    let arrays: Arc<Vec<_>> = Arc::new(
        shapes
            .iter()
            .zip(&data)
            .map(|(s, d)| ctx.upload_shaped(d, s).unwrap())
            .collect(),
    );
    // Expected results, computed on the CPU.
    let col_sums = |d: &[i32], rows: usize, cols: usize| -> Vec<i32> {
        (0..cols)
            .map(|c| (0..rows).map(|r| d[r * cols + c]).sum())
            .collect()
    };
    let expected: Arc<Vec<Expected>> = Arc::new(
        shapes
            .iter()
            .zip(&data)
            .map(|(s, d)| {
                let max = *d.iter().max().unwrap();
                let (rows, cols) = if s.len() == 2 {
                    (s[0], s[1])
                } else {
                    (1, s[0])
                };
                (
                    d.iter().sum(),
                    *d.iter().min().unwrap(),
                    d.iter().position(|&v| v == max).unwrap() as u32,
                    col_sums(d, rows, cols),
                )
            })
            .collect(),
    );
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let (ctx, arrays, expected) =
                (Arc::clone(&ctx), Arc::clone(&arrays), Arc::clone(&expected));
            std::thread::spawn(move || {
                for i in 0..1000 {
                    let k = (i + t) % arrays.len();
                    let (x, want) = (&arrays[k], &expected[k]);
                    match i % 5 {
                        0 => assert_eq!(
                            ctx.run(|rec| rec.sum(x, .., false)).map(|v| v[0]).unwrap(),
                            want.0,
                            "thread {t} call {i}"
                        ),
                        1 => assert_eq!(
                            ctx.run(|rec| rec.min(x, .., false)).map(|v| v[0]).unwrap(),
                            want.1,
                            "thread {t} call {i}"
                        ),
                        2 => assert_eq!(
                            ctx.run(|rec| rec.argmax(x, .., false))
                                .map(|v| v[0])
                                .unwrap(),
                            want.2,
                            "thread {t} call {i}"
                        ),
                        3 => {
                            let axis = Reduction::new(ReduceOp::Sum).axes(0);
                            let y = ctx.run(|rec| rec.reduce::<i32, i32>(x, &axis)).unwrap();
                            let got = y;
                            if x.shape().len() == 2 {
                                assert_eq!(got, want.3, "thread {t} call {i}");
                            } else {
                                assert_eq!(got, vec![want.0], "thread {t} call {i}");
                            }
                        }
                        _ => {
                            // Three reductions in one recording, one readback.
                            let mut rec = ctx.recorder();
                            let (s, m, a) = (
                                rec.sum(x, .., false).unwrap(),
                                rec.min(x, .., false).unwrap(),
                                rec.argmax(x, .., false).unwrap(),
                            );
                            let (ts, tm, ta) = (
                                rec.read(&s).unwrap(),
                                rec.read(&m).unwrap(),
                                rec.read(&a).unwrap(),
                            );
                            let r = rec.submit().unwrap().wait().unwrap();
                            assert_eq!(
                                (
                                    r.scalar(&ts).unwrap(),
                                    r.scalar(&tm).unwrap(),
                                    r.scalar(&ta).unwrap()
                                ),
                                (want.0, want.1, want.2),
                                "thread {t} call {i}"
                            );
                        }
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a worker thread panicked");
    }
}
