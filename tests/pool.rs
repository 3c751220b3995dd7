//! The buffer pool: reuse between calls, statistics, trimming.

mod common;

use common::{random_f32, rng};
use wgpu_reduce::{Context, ContextOptions};

fn private_ctx() -> Context {
    Context::with_options(ContextOptions::default()).expect("no GPU adapter for the GPU tests")
}

/// A context whose sums of more than a workgroup's share take two passes, with a temporary
/// array of partial sums between them (`Tuning::reduce_last_group` off).
fn two_pass_ctx() -> Context {
    let options = ContextOptions::default().with_tuning({
        let mut t = wgpu_reduce::Tuning::default();
        t.reduce_last_group = false;
        t
    });
    Context::with_options(options).expect("no GPU adapter for the GPU tests")
}

#[test]
fn repeating_a_reduction_allocates_nothing_after_the_first_call() {
    let ctx = two_pass_ctx();
    let mut rng = rng("pool_reuse");
    let x = ctx.upload(&random_f32(&mut rng, (1 << 20) + 3)).unwrap();
    ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap();
    let first = ctx.pool_stats();
    // Partials and the result; and a staging buffer unless the result is mapped itself.
    let per_call = if ctx.capabilities().mapped_results {
        2
    } else {
        3
    };
    assert!(
        first.allocations >= per_call,
        "partials, result (staging): {first:?}"
    );
    for _ in 0..10 {
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap();
    }
    let after = ctx.pool_stats();
    assert_eq!(
        after.allocations, first.allocations,
        "no new buffer after the first call: {after:?}"
    );
    assert!(after.reuses >= first.reuses + 10 * per_call, "{after:?}");
    assert_eq!(after.bytes_in_use, 0, "everything went back: {after:?}");
    assert_eq!(after.bytes_held, first.bytes_held);
    // The peak of what one call leases at once (partial sums, result, staging): more than
    // one buffer's size class, at most what the pool holds.
    assert!(
        after.peak_in_use_bytes >= per_call * 256 && after.peak_in_use_bytes <= after.bytes_held,
        "{after:?}"
    );
    // A slightly different size falls into the same size classes.
    let y = ctx.upload(&random_f32(&mut rng, (1 << 20) - 1000)).unwrap();
    ctx.run(|rec| rec.sum(&y, .., false)).map(|v| v[0]).unwrap();
    assert_eq!(ctx.pool_stats().allocations, first.allocations);
}

#[test]
fn results_hold_their_buffer_until_dropped_and_trim_frees() {
    let ctx = private_ctx();
    let x = ctx.upload(&[1.0f32, 2.0, 3.0]).unwrap();
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    rec.submit().unwrap().wait().unwrap();
    let held = ctx.pool_stats();
    assert!(
        held.bytes_in_use >= 256,
        "the result's buffer is leased: {held:?}"
    );
    drop(s);
    let freed = ctx.pool_stats();
    assert_eq!(freed.bytes_in_use, 0, "{freed:?}");
    assert!(freed.bytes_free > 0 && freed.buffers_free > 0);
    assert_eq!(freed.bytes_held, freed.bytes_free);
    ctx.trim_pool();
    let trimmed = ctx.pool_stats();
    assert_eq!(trimmed.bytes_held, 0, "{trimmed:?}");
    assert_eq!(trimmed.buffers_free, 0);
    assert!(trimmed.high_water_bytes >= held.bytes_held);
    ctx.reset_pool_high_water();
    assert_eq!(ctx.pool_stats().high_water_bytes, 0);
    // Works again after a trim (allocating anew).
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        6.0
    );
}

#[test]
fn buffers_do_not_return_while_the_gpu_may_use_them() {
    let ctx = two_pass_ctx();
    let mut rng = rng("pool_in_flight");
    let x = ctx.upload(&random_f32(&mut rng, 1 << 24)).unwrap();
    ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(); // warm up: pipelines, pool
    let mut rec = ctx.recorder();
    let results: Vec<_> = (0..10).map(|_| rec.sum(&x, .., false).unwrap()).collect();
    let submission = rec.submit().unwrap();
    drop(results); // the GPU is still writing them
    let during = ctx.pool_stats();
    let busy = !ctx
        .device()
        .poll(wgpu::PollType::Poll)
        .unwrap()
        .is_queue_empty();
    if busy {
        // The GPU had not finished when `during` was taken, so nothing it uses may be free yet:
        // 10 results + 10 partial buffers + params are still leased.
        assert!(during.bytes_in_use >= 21 * 256, "{during:?}");
    } else {
        eprintln!("the GPU finished 10 sums of 2^24 before the check; nothing to observe");
    }
    submission.wait().unwrap();
    let after = ctx.pool_stats();
    assert_eq!(
        after.bytes_in_use, 0,
        "all returned once the GPU finished: {after:?}"
    );
}

/// Mixed work on a few arrays: whole-array and axis reductions whose temporaries, results and
/// readback buffers span many size classes. Returns the results, one per call.
fn mixed_call(ctx: &Context, arrays: &[wgpu_reduce::GpuArray<f32>], i: usize) -> Vec<f32> {
    use wgpu_reduce::{ReduceOp, Reduction};
    let x = &arrays[i % arrays.len()];
    let red = match (i / arrays.len()) % 4 {
        0 => Reduction::new(ReduceOp::Sum),
        1 => Reduction::new(ReduceOp::Max).axes(0),
        2 => Reduction::new(ReduceOp::Mean).axes(-1),
        _ => Reduction::new(ReduceOp::Var).axes(0).keepdim(true),
    };
    // Recorded and submitted, then read by a second submission: the result and a staging
    // buffer are both held while it is read.
    let mut rec = ctx.recorder();
    let y = rec.reduce::<f32, f32>(x, &red).unwrap();
    let _ = rec.submit().unwrap();
    ctx.read(&y).unwrap()
}

#[test]
fn a_capped_pool_stays_under_its_cap_over_10000_calls() {
    let mut rng = rng("pool_cap");
    let shapes: [&[usize]; 5] = [&[1000, 3], &[3, 100_000], &[200_000, 2], &[512, 512], &[7]];
    let data: Vec<Vec<f32>> = shapes
        .iter()
        .map(|s| random_f32(&mut rng, s.iter().product()))
        .collect();
    let cap = 3 << 20;
    let capped =
        Context::with_options(ContextOptions::default().with_pool_cap_bytes(Some(cap))).unwrap();
    let upload = |ctx: &Context| -> Vec<wgpu_reduce::GpuArray<f32>> {
        shapes
            .iter()
            .zip(&data)
            .map(|(s, d)| ctx.upload_shaped(d, s).unwrap())
            .collect()
    };
    // Without a cap the same work holds more than the cap: the test can fail.
    let free = private_ctx();
    let free_arrays = upload(&free);
    let calls = 20 * shapes.len();
    let expected: Vec<Vec<f32>> = (0..calls)
        .map(|i| mixed_call(&free, &free_arrays, i))
        .collect();
    let unbounded = free.pool_stats();
    assert!(
        unbounded.high_water_bytes > cap,
        "the workload must need more than the cap to test it: {unbounded:?}"
    );
    let arrays = upload(&capped);
    // 10,000 calls (fewer where the sweeps are cut short: see common::sweep_fraction).
    let total = ((10_000.0 * common::sweep_fraction()) as usize).max(2 * calls);
    for i in 0..total {
        let got = mixed_call(&capped, &arrays, i);
        // Same device and tuning: the results are bit-identical to the uncapped context's.
        assert_eq!(got, expected[i % calls], "call {i}");
    }
    let stats = capped.pool_stats();
    assert!(
        stats.high_water_bytes <= cap,
        "high water {} above the cap {cap}: {stats:?}",
        stats.high_water_bytes
    );
    assert!(stats.evictions > 0, "{stats:?}");
    assert_eq!(stats.bytes_in_use, 0, "every lease went back: {stats:?}");
    eprintln!("capped pool after {total} calls: {stats:?}; uncapped: {unbounded:?}");
}
