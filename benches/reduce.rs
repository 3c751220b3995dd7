//! criterion benches: host-to-host wall time of whole-array reductions on the default adapter.
//!
//!     cargo bench                      # all
//!     cargo bench -- sum_f32           # one group
//!
//! These measure what an application sees per call (upload excluded: data already on the GPU):
//! record, submit, wait, read one value. GPU-only time and the peer comparison come from
//! `examples/sum` and `benches/torch_peer.py` (see BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use wgpu_reduce::Context;

fn sizes() -> Vec<usize> {
    // Keep the default set small enough for a CPU Vulkan driver; set WGPU_REDUCE_BENCH_MAX_LOG2
    // (e.g. 28) on a real GPU.
    let max_log2: u32 = std::env::var("WGPU_REDUCE_BENCH_MAX_LOG2")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(22);
    (10..=max_log2).step_by(4).map(|p| 1usize << p).collect()
}

fn bench(c: &mut Criterion) {
    let ctx = Context::new().expect("no GPU adapter");
    eprintln!(
        "benchmarking on {:?} ({:?})",
        ctx.capabilities().adapter.name,
        ctx.capabilities().adapter.backend
    );
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5eed);
    let mut group = c.benchmark_group("sum_f32");
    for n in sizes() {
        let data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let x = ctx.upload(&data).unwrap();
        group.throughput(Throughput::Bytes((n * 4) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &x, |b, x| {
            b.iter(|| ctx.sum(x).unwrap())
        });
    }
    group.finish();
    let mut group = c.benchmark_group("max_i32");
    for n in sizes() {
        let data: Vec<i32> = (0..n).map(|_| rng.gen()).collect();
        let x = ctx.upload(&data).unwrap();
        group.throughput(Throughput::Bytes((n * 4) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &x, |b, x| {
            b.iter(|| ctx.max(x).unwrap())
        });
    }
    group.finish();
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
                    let s = rec.sum(a).unwrap();
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
