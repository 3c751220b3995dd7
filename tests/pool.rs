//! The buffer pool: reuse between calls, statistics, trimming.

mod common;

use common::{random_f32, rng};
use wgpu_reduce::{Context, ContextOptions};

fn private_ctx() -> Context {
    Context::with_options(ContextOptions::default()).expect("no GPU adapter for the GPU tests")
}

#[test]
fn repeating_a_reduction_allocates_nothing_after_the_first_call() {
    let ctx = private_ctx();
    let mut rng = rng("pool_reuse");
    let x = ctx.upload(&random_f32(&mut rng, (1 << 20) + 3)).unwrap();
    ctx.sum(&x).unwrap();
    let first = ctx.pool_stats();
    assert!(
        first.allocations >= 3,
        "partials, result, params, staging: {first:?}"
    );
    for _ in 0..10 {
        ctx.sum(&x).unwrap();
    }
    let after = ctx.pool_stats();
    assert_eq!(
        after.allocations, first.allocations,
        "no new buffer after the first call: {after:?}"
    );
    assert!(after.reuses >= first.reuses + 10 * 3, "{after:?}");
    assert_eq!(after.bytes_in_use, 0, "everything went back: {after:?}");
    assert_eq!(after.bytes_held, first.bytes_held);
    // A slightly different size falls into the same size classes.
    let y = ctx.upload(&random_f32(&mut rng, (1 << 20) - 1000)).unwrap();
    ctx.sum(&y).unwrap();
    assert_eq!(ctx.pool_stats().allocations, first.allocations);
}

#[test]
fn results_hold_their_buffer_until_dropped_and_trim_frees() {
    let ctx = private_ctx();
    let x = ctx.upload(&[1.0f32, 2.0, 3.0]).unwrap();
    let mut rec = ctx.recorder();
    let s = rec.sum(&x).unwrap();
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
    assert_eq!(ctx.sum(&x).unwrap(), 6.0);
}

#[test]
fn buffers_do_not_return_while_the_gpu_may_use_them() {
    let ctx = private_ctx();
    let mut rng = rng("pool_in_flight");
    let x = ctx.upload(&random_f32(&mut rng, 1 << 24)).unwrap();
    ctx.sum(&x).unwrap(); // warm up: pipelines, pool
    let mut rec = ctx.recorder();
    let results: Vec<_> = (0..10).map(|_| rec.sum(&x).unwrap()).collect();
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
