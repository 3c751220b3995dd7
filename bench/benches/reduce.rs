//! criterion benches: host-to-host wall time per call on the default adapter: whole-array sum,
//! min, max, argmax of f32, f16/bf16 and i32 sums, i32 max, sums along both axes of square and
//! three-row matrices, and 16 sums in one submission, over sizes 2^10 .. 2^22 (to 2^28 with
//! WGPU_REDUCE_BENCH_MAX_LOG2=28 on a real GPU).
//!
//!     cargo bench -p wgpu-reduce-bench                   # all
//!     cargo bench -p wgpu-reduce-bench -- sum_f32        # one group
//!
//! These measure what an application sees per call (upload excluded: data already on the GPU):
//! record, submit, wait, read one value. GPU-only time and the peer comparison come from
//! `examples/sum` and `benches/torch_peer.py` (see BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

use rand::{Rng, SeedableRng};
use wgpu_reduce::half::{bf16, f16};
use wgpu_reduce::{Context, Element, GpuArray};

fn sizes() -> Vec<usize> {
    // Keep the default set small enough for a CPU Vulkan driver; set WGPU_REDUCE_BENCH_MAX_LOG2
    // (e.g. 28) on a real GPU.
    let max_log2: u32 = std::env::var("WGPU_REDUCE_BENCH_MAX_LOG2")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(22);
    (10..=max_log2).step_by(4).map(|p| 1usize << p).collect()
}

/// One benchmark group: `op` over arrays of `shape(n)` made by `make(n)`, for every size.
fn group<T: Element>(
    c: &mut Criterion,
    ctx: &Context,
    name: &str,
    make: impl Fn(usize) -> Vec<T>,
    shape: impl Fn(usize) -> Vec<usize>,
    op: impl Fn(&Context, &GpuArray<T>),
) {
    let mut group = c.benchmark_group(name);
    for n in sizes() {
        let dims = shape(n);
        let x = ctx
            .upload_shaped(&make(dims.iter().product()), &dims)
            .unwrap();
        group.throughput(Throughput::Bytes((x.len() * T::DTYPE.size_bytes()) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &x, |b, x| {
            b.iter(|| op(ctx, x))
        });
    }
    group.finish();
}

/// A square matrix of about `n` elements (the side a power of two).
fn square(n: usize) -> Vec<usize> {
    let side = 1usize << (n.trailing_zeros() / 2);
    vec![side, side]
}

fn bench(c: &mut Criterion) {
    let ctx = Context::new().expect("no GPU adapter");
    eprintln!(
        "benchmarking on {:?} ({:?})",
        ctx.capabilities().adapter.name,
        ctx.capabilities().adapter.backend
    );
    let rng = std::cell::RefCell::new(rand::rngs::StdRng::seed_from_u64(0x5eed));
    let f32s = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|_| rng.borrow_mut().gen_range(-1.0..1.0))
            .collect()
    };
    let f16s = |n: usize| -> Vec<f16> { f32s(n).into_iter().map(f16::from_f32).collect() };
    let bf16s = |n: usize| -> Vec<bf16> { f32s(n).into_iter().map(bf16::from_f32).collect() };
    let i32s = |n: usize| -> Vec<i32> { (0..n).map(|_| rng.borrow_mut().gen()).collect() };
    let flat = |n: usize| vec![n];
    group(c, &ctx, "sum_f32", f32s, flat, |c, x| {
        black_box(c.run(|rec| rec.sum(x, .., false)).unwrap());
    });
    group(c, &ctx, "min_f32", f32s, flat, |c, x| {
        black_box(c.run(|rec| rec.min(x, .., false)).unwrap());
    });
    group(c, &ctx, "max_f32", f32s, flat, |c, x| {
        black_box(c.run(|rec| rec.max(x, .., false)).unwrap());
    });
    group(c, &ctx, "argmax_f32", f32s, flat, |c, x| {
        black_box(c.run(|rec| rec.argmax(x, .., false)).unwrap());
    });
    group(c, &ctx, "sum_f16", f16s, flat, |c, x| {
        black_box(c.run(|rec| rec.sum(x, .., false)).unwrap());
    });
    group(c, &ctx, "sum_bf16", bf16s, flat, |c, x| {
        black_box(c.run(|rec| rec.sum(x, .., false)).unwrap());
    });
    group(c, &ctx, "sum_i32", i32s, flat, |c, x| {
        black_box(c.run(|rec| rec.sum(x, .., false)).unwrap());
    });
    group(c, &ctx, "max_i32", i32s, flat, |c, x| {
        black_box(c.run(|rec| rec.max(x, .., false)).unwrap());
    });
    // Along axes: both axes of a square matrix, and of a skinny one (3 rows); results are read
    // back, so these are host to host like the rest.
    for (name, shape, axis) in [
        ("sum_f32_square_axis0", square as fn(usize) -> Vec<usize>, 0),
        ("sum_f32_square_axis1", square, 1),
        ("sum_f32_3_rows_axis0", |n: usize| vec![3, n / 3], 0),
        ("sum_f32_3_rows_axis1", |n: usize| vec![3, n / 3], 1),
    ] {
        group(c, &ctx, name, f32s, shape, |c, x| {
            let mut rec = c.recorder();
            let s = rec.sum(x, axis, false).unwrap();
            let t = rec.read(&s).unwrap();
            black_box(rec.submit().unwrap().wait().unwrap().get(&t).unwrap());
        });
    }
    let mut rng = rng.into_inner();
    let mut group = c.benchmark_group("batch16_sum_f32_65536");
    let arrays: Vec<_> = (0..16)
        .map(|_| {
            ctx.upload(
                &(0..65536)
                    .map(|_| rng.gen_range(-1.0f32..1.0))
                    .collect::<Vec<_>>(),
            )
            .unwrap()
        })
        .collect();
    group.throughput(Throughput::Bytes(16 * 65536 * 4));
    group.bench_function("one_submission", |b| {
        b.iter(|| {
            let mut rec = ctx.recorder();
            let tokens: Vec<_> = arrays
                .iter()
                .map(|a| {
                    let s = rec.sum(a, .., false).unwrap();
                    rec.read(&s).unwrap()
                })
                .collect();
            let r = rec.submit().unwrap().wait().unwrap();
            tokens.iter().map(|t| r.scalar(t).unwrap()).sum::<f32>()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
