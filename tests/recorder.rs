//! The recorder: batching (checked by counters, not timing), results that stay on the GPU and
//! feed later work, recording into a caller's encoder, and contexts on a caller's device.

mod common;

use common::{random_f32, random_i32, rng};
use wgpu_reduce::{Context, ContextOptions, Error, GpuArray, ReduceOp, Reduction};

/// A private context, so counters are not disturbed by tests running in parallel.
fn private_ctx() -> Context {
    Context::with_options(ContextOptions::default().with_testing(wgpu_reduce::Testing::poisoned()))
        .expect("no GPU adapter for the GPU tests")
}

fn wrapping_sum(v: &[i32]) -> i32 {
    v.iter().fold(0i32, |a, &b| a.wrapping_add(b))
}

#[test]
fn many_reductions_one_submission_one_readback() {
    let ctx = private_ctx();
    let mut rng = rng("batching");
    let inputs: Vec<Vec<i32>> = (0..16)
        .map(|i| random_i32(&mut rng, 1000 + i * 40_000))
        .collect();
    let arrays: Vec<GpuArray<i32>> = inputs.iter().map(|d| ctx.upload(d).unwrap()).collect();
    let before = ctx.stats();
    let mut rec = ctx.recorder();
    let mut tokens = Vec::new();
    for a in &arrays {
        let s = rec.sum(a, .., false).unwrap();
        let m = rec.max(a, .., false).unwrap();
        tokens.push((rec.read(&s).unwrap(), rec.read(&m).unwrap()));
    }
    let dispatches = rec.dispatch_count() as u64;
    // Large inputs too: their last workgroup combines the others' values.
    assert_eq!(dispatches, 32, "one pass each");
    // The 30 of more than one workgroup (all but the first array's) each take clean states of
    // their own, and each dispatch a stand-in of its own: none waits for another.
    assert_eq!(rec.barriers(), 0);
    let results = rec.submit().unwrap().wait().unwrap();
    let after = ctx.stats();
    assert_eq!(
        after.submissions - before.submissions,
        1,
        "one queue submission for 32 reductions"
    );
    assert_eq!(
        after.readbacks - before.readbacks,
        1,
        "one host round trip for 32 results"
    );
    assert_eq!(after.dispatches - before.dispatches, dispatches);
    for (d, (ts, tm)) in inputs.iter().zip(&tokens) {
        assert_eq!(results.scalar(ts).unwrap(), wrapping_sum(d));
        assert_eq!(results.scalar(tm).unwrap(), *d.iter().max().unwrap());
    }
}

#[test]
fn results_stay_on_gpu_and_feed_later_operations() {
    let ctx = private_ctx();
    let mut rng = rng("chaining");
    let parts: Vec<Vec<i32>> = (0..5).map(|_| random_i32(&mut rng, 70_001)).collect();
    let arrays: Vec<_> = parts.iter().map(|d| ctx.upload(d).unwrap()).collect();
    let mut rec = ctx.recorder();
    let sums: Vec<GpuArray<i32>> = arrays
        .iter()
        .map(|a| rec.sum(a, .., false).unwrap())
        .collect();
    // A result is a 0-d array: it can be reduced again in the same recording.
    let again = rec.sum(&sums[0], .., false).unwrap();
    rec.submit().unwrap().wait().unwrap();
    assert_eq!(sums[0].shape(), &[] as &[usize]);
    assert_eq!(sums[0].len(), 1);

    let before = ctx.stats();
    // Reading a Vec of arrays in one step: one submission, one round trip.
    let values: Vec<i32> = ctx
        .run(|_| Ok(sums.clone()))
        .unwrap()
        .into_iter()
        .map(|v| v[0])
        .collect();
    assert_eq!(
        ctx.stats().readbacks - before.readbacks,
        1,
        "five results, one round trip"
    );
    for (v, d) in values.iter().zip(&parts) {
        assert_eq!(*v, wrapping_sum(d));
    }
    assert_eq!(ctx.read(&again).unwrap(), vec![wrapping_sum(&parts[0])]);
}

#[test]
fn reduce_into_a_poisoned_caller_array() {
    let ctx = common::ctx();
    let mut rng = rng("reduce_into");
    let data = random_f32(&mut rng, 12_345);
    let x = ctx.upload(&data).unwrap();
    let out = ctx.upload(&[f32::NAN]).unwrap(); // poison
    let mut rec = ctx.recorder();
    rec.reduce_into(&x, &Reduction::new(ReduceOp::Max), &out)
        .unwrap();
    rec.submit().unwrap().wait().unwrap();
    let want = data.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!(ctx.read(&out).unwrap(), vec![want]);
    // Mean writes f32 for an i32 input.
    let xi = ctx.upload(&[1i32, 2, 3, 4]).unwrap();
    let mean_out = ctx.upload(&[f32::NAN]).unwrap();
    let mut rec = ctx.recorder();
    rec.reduce_into(&xi, &Reduction::new(ReduceOp::Mean), &mean_out)
        .unwrap();
    rec.submit().unwrap().wait().unwrap();
    assert_eq!(ctx.read(&mean_out).unwrap(), vec![2.5]);
}

#[test]
fn record_into_a_callers_encoder() {
    let ctx = private_ctx();
    let mut rng = rng("record_into");
    let data = random_i32(&mut rng, 300_001);
    let x = ctx.upload(&data).unwrap();
    let before = ctx.stats();
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    let lo = rec.min(&x, .., false).unwrap();
    let mut encoder = ctx.device().create_command_encoder(&Default::default());
    rec.record_into(&mut encoder).unwrap();
    assert_eq!(
        ctx.stats().submissions,
        before.submissions,
        "record_into submits nothing"
    );
    ctx.queue().submit([encoder.finish()]);
    assert_eq!(ctx.read(&s).unwrap(), vec![wrapping_sum(&data)]);
    assert_eq!(ctx.read(&lo).unwrap(), vec![*data.iter().min().unwrap()]);
}

#[test]
fn record_into_rejects_reads() {
    let ctx = common::ctx();
    let x = ctx.upload(&[1.0f32, 2.0]).unwrap();
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    rec.read(&s).unwrap();
    let mut encoder = ctx.device().create_command_encoder(&Default::default());
    let e = rec.record_into(&mut encoder).unwrap_err();
    assert!(matches!(e, Error::InvalidUse(_)), "{e}");
    assert!(e.to_string().contains("record_into"), "{e}");
}

#[test]
fn context_on_a_callers_device_and_buffer() {
    // The application owns the device, the queue and the buffer.
    let (device, queue) = common::app_device();
    let ctx = Context::from_wgpu(device.clone(), queue.clone(), ContextOptions::default()).unwrap();
    let mut rng = rng("from_wgpu");
    let data = random_i32(&mut rng, 5_003);
    use wgpu::util::DeviceExt;
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("app buffer"),
        contents: bytemuck::cast_slice(&data),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let x = GpuArray::<i32>::from_buffer(&ctx, buffer, &[5_003]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        wrapping_sum(&data)
    );
    assert_eq!(ctx.read(&x).unwrap(), data);
    // A buffer of exactly 3 elements (smaller than one vec4 word) works too.
    let small = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("tiny"),
        contents: bytemuck::cast_slice(&[5i32, -7, 11]),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let s = GpuArray::<i32>::from_buffer(&ctx, small, &[3]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.max(&s, .., false)).map(|v| v[0]).unwrap(),
        11
    );
    assert_eq!(
        ctx.run(|rec| rec.sum(&s, .., false)).map(|v| v[0]).unwrap(),
        9
    );
}

/// Arrays over ranges of an application's buffers: reductions (whole and in pieces: a binding
/// limit of 16 KiB cuts 150,001 elements into many windows, each offset by the range's start),
/// a scan into a range of another buffer whose bytes around the range must stay as they were,
/// and reads of exactly the range.
#[test]
fn arrays_over_ranges_of_a_callers_buffers() {
    let ctx = Context::with_options(
        ContextOptions::default().with_testing(wgpu_reduce::Testing {
            poison_temporaries: true,
            max_storage_binding_bytes: Some(16 << 10),
            ..Default::default()
        }),
    )
    .unwrap();
    let align = u64::from(
        ctx.capabilities()
            .limits
            .min_storage_buffer_offset_alignment,
    );
    let mut rng = rng("buffer ranges");
    let mut checked = 0;
    for n in [1usize, 3, 1000, 150_001] {
        let data = random_i32(&mut rng, n);
        let bytes = (4 * n as u64).div_ceil(4) * 4;
        // Poison before and after the range: a read outside it would change the sums.
        let before = 3 * align;
        let total = before + bytes + align;
        let mut all = vec![i32::MIN / 3; (total / 4) as usize];
        all[(before / 4) as usize..][..n].copy_from_slice(&data);
        use wgpu::util::DeviceExt;
        let buffer = ctx
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("app buffer"),
                contents: bytemuck::cast_slice(&all),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            });
        let x =
            GpuArray::<i32>::from_buffer_range(&ctx, buffer, before..before + bytes, &[n]).unwrap();
        assert_eq!(x.offset(), before);
        let (s, hi, lo) = ctx
            .run(|rec| {
                Ok((
                    rec.sum(&x, .., false)?,
                    rec.max(&x, .., false)?,
                    rec.argmin(&x, .., false)?,
                ))
            })
            .unwrap();
        assert_eq!(s, vec![wrapping_sum(&data)], "sum of {n}");
        assert_eq!(hi, vec![*data.iter().max().unwrap()], "max of {n}");
        let first_min = data.iter().position(|v| v == data.iter().min().unwrap());
        assert_eq!(lo, vec![first_min.unwrap() as u32], "argmin of {n}");
        assert_eq!(ctx.read(&x).unwrap(), data, "read of {n}");
        // A scan into the middle of another buffer, whose other bytes are sentinels.
        let sentinel = vec![0x5A5A_5A5Ai32; (total / 4) as usize];
        let out_buffer = ctx
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("app output"),
                contents: bytemuck::cast_slice(&sentinel),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            });
        let out = GpuArray::<i32>::from_buffer_range(
            &ctx,
            out_buffer.clone(),
            before..before + bytes,
            &[n],
        )
        .unwrap();
        let mut rec = ctx.recorder();
        let scanned = rec.scan_into(&x, &wgpu_reduce::Scan::new(wgpu_reduce::ScanOp::Add), &out);
        if bytes > 16 << 10 {
            // Scans bind their whole input and output: beyond the binding limit, a typed error.
            assert!(
                matches!(scanned, Err(Error::TooLarge { .. })),
                "{scanned:?}"
            );
            checked += 1;
            continue;
        }
        scanned.unwrap();
        rec.submit().unwrap().wait().unwrap();
        let whole =
            GpuArray::<i32>::from_buffer(&ctx, out_buffer, &[(total / 4) as usize]).unwrap();
        let got = ctx.read(&whole).unwrap();
        let mut run = 0i32;
        for (i, g) in got.iter().enumerate() {
            let at = i as u64 * 4;
            if at >= before && at < before + 4 * n as u64 {
                run = run.wrapping_add(data[(at - before) as usize / 4]);
                assert_eq!(*g, run, "cumsum of {n}, element {}", (at - before) / 4);
            } else {
                assert_eq!(
                    *g, 0x5A5A_5A5A,
                    "byte {at} outside the range was written ({n})"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn timestamps_report_gpu_time_where_supported() {
    let ctx = common::ctx();
    let x = ctx.upload(&vec![1.0f32; 1 << 20]).unwrap();
    let mut rec = ctx.recorder();
    rec.enable_timestamps();
    let s = rec.sum(&x, .., false).unwrap();
    let t = rec.read(&s).unwrap();
    let r = rec.submit().unwrap().wait().unwrap();
    assert_eq!(r.scalar(&t).unwrap(), (1 << 20) as f32);
    if ctx.capabilities().timestamps {
        let gpu = r.gpu_time().expect("timestamps enabled and supported");
        eprintln!("GPU time of a 2^20 sum: {gpu:?}");
        assert!(gpu.as_nanos() > 0);
    } else {
        assert!(r.gpu_time().is_none());
    }
}

#[test]
fn read_whole_arrays_and_reshape() {
    let ctx = common::ctx();
    let mut rng = rng("read_array");
    let data = random_f32(&mut rng, 6 * 7);
    let x = ctx.upload_shaped(&data, &[6, 7]).unwrap();
    assert_eq!(x.shape(), &[6, 7]);
    assert_eq!(x.ndim(), 2);
    assert_eq!(ctx.read(&x).unwrap(), data);
    let y = x.reshape(&[42]).unwrap();
    assert_eq!(ctx.read(&y).unwrap(), data);
    let mut rec = ctx.recorder();
    let t = rec.read(&x).unwrap();
    let r = rec.submit().unwrap().wait().unwrap();
    assert_eq!(r.get(&t).unwrap(), data);
    let e = r.scalar(&t).unwrap_err();
    assert!(e.to_string().contains("one element"), "{e}");
}

#[test]
fn tokens_belong_to_their_recording() {
    let ctx = common::ctx();
    let x = ctx.upload(&[1u32, 2, 3]).unwrap();
    let mut a = ctx.recorder();
    let ta = a.read(&x).unwrap();
    let mut b = ctx.recorder();
    let _tb = b.read(&x).unwrap();
    let rb = b.submit().unwrap().wait().unwrap();
    let e = rb.get(&ta).unwrap_err();
    assert!(matches!(e, Error::InvalidUse(_)), "{e}");
    drop(a);
}

#[test]
fn submission_without_reads_waits() {
    let ctx = common::ctx();
    let x = ctx.upload(&[4i32, 5]).unwrap();
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    rec.submit().unwrap().wait().unwrap();
    assert_eq!(ctx.read(&s).unwrap(), vec![9]);
    // An empty recording is fine too.
    ctx.recorder().submit().unwrap().wait().unwrap();
}

#[test]
fn pipelines_are_compiled_once_per_variant() {
    let ctx = private_ctx();
    let x = ctx.upload(&vec![1.0f32; 100_000]).unwrap();
    assert_eq!(ctx.stats().pipelines_compiled, 0);
    ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(); // two passes, one variant (f32 sum)
    assert_eq!(ctx.stats().pipelines_compiled, 1);
    ctx.run(|rec| rec.mean(&x, .., false))
        .map(|v| v[0])
        .unwrap();
    ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap();
    ctx.run(|rec| rec.mean(&x, .., false))
        .map(|v| v[0])
        .unwrap();
    assert_eq!(ctx.stats().pipelines_compiled, 2, "sum and mean, each once");
    let xi = ctx.upload(&vec![1i32; 100_000]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.mean(&xi, .., false))
            .map(|v| v[0])
            .unwrap(),
        1.0
    );
    // i32 mean: a first pass reading i32, then the f32 mean variant already compiled.
    assert_eq!(ctx.stats().pipelines_compiled, 3);
}

#[test]
fn repeated_calls_share_one_parameter_buffer() {
    let ctx = private_ctx();
    let mut rng = rng("parameter buffers");
    let data = random_i32(&mut rng, 100_003);
    let x = ctx.upload(&data).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        wrapping_sum(&data)
    );
    let made = ctx.stats().parameter_buffers;
    assert_eq!(made, 1, "one submission, one parameter buffer");
    // The same call again, also with several submissions in flight at once: nothing new.
    for _ in 0..10 {
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            wrapping_sum(&data)
        );
    }
    let subs: Vec<_> = (0..4)
        .map(|_| {
            let mut rec = ctx.recorder();
            let s = rec.sum(&x, .., false).unwrap();
            let t = rec.read(&s).unwrap();
            (rec.submit().unwrap(), t)
        })
        .collect();
    for (sub, t) in subs {
        assert_eq!(sub.wait().unwrap().scalar(&t).unwrap(), wrapping_sum(&data));
    }
    assert_eq!(ctx.stats().parameter_buffers, made);
    // Another length has other parameters: one more, and the right answer with them.
    let y = ctx.upload(&data[..77_777]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&y, .., false)).map(|v| v[0]).unwrap(),
        wrapping_sum(&data[..77_777])
    );
    assert_eq!(ctx.stats().parameter_buffers, made + 1);
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        wrapping_sum(&data)
    );
    assert_eq!(ctx.stats().parameter_buffers, made + 1);
    // A recording whose parameters exceed 64 KiB (more than 1024 dispatches, whatever the
    // device's uniform offset alignment) gets a buffer of its own each time (the cache keeps
    // small ones only), with the right results.
    for round in 0..2 {
        let mut rec = ctx.recorder();
        let sums: Vec<_> = (0..1100).map(|_| rec.sum(&y, .., false).unwrap()).collect();
        assert!(rec.dispatch_count() > 1024);
        let t = rec.read(sums.last().unwrap()).unwrap();
        let got = rec.submit().unwrap().wait().unwrap().scalar(&t).unwrap();
        assert_eq!(got, wrapping_sum(&data[..77_777]));
        assert_eq!(ctx.stats().parameter_buffers, made + 2 + round);
    }
}

/// `wait_async` and `run_async` do not spin: the future is polled once, stays pending until the
/// GPU's callback wakes its task, and is then ready. Driven by an executor that counts polls
/// and sleeps until woken; a future that woke itself on every poll (a busy loop) would be
/// polled many times.
#[test]
fn async_waits_are_woken_not_polled_in_a_loop() {
    use std::sync::{Arc, Condvar, Mutex};
    use std::task::{Context as TaskContext, Poll, Wake, Waker};
    struct Flag(Mutex<bool>, Condvar);
    impl Wake for Flag {
        fn wake(self: Arc<Self>) {
            *self.0.lock().unwrap() = true;
            self.1.notify_all();
        }
    }
    /// Runs `fut` to completion; returns its output and how many times it was polled.
    fn polls<F: std::future::Future>(fut: F) -> (F::Output, usize) {
        let flag = Arc::new(Flag(Mutex::new(false), Condvar::new()));
        let waker = Waker::from(Arc::clone(&flag));
        let mut cx = TaskContext::from_waker(&waker);
        let mut fut = std::pin::pin!(fut);
        for n in 1.. {
            if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
                return (v, n);
            }
            let woken = flag.0.lock().unwrap();
            let (mut woken, timeout) = flag
                .1
                .wait_timeout_while(woken, std::time::Duration::from_secs(60), |w| !*w)
                .unwrap();
            assert!(
                !timeout.timed_out(),
                "not woken within 60 s after {n} polls"
            );
            *woken = false;
        }
        unreachable!()
    }
    let ctx = private_ctx();
    let mut rng = rng("async wakes");
    let data = random_i32(&mut rng, 1 << 20);
    let x = ctx.upload(&data).unwrap();
    let mut checked = 0;
    for _ in 0..5 {
        let (sum, n) = polls(ctx.run_async(|rec| rec.sum(&x, .., false)));
        assert_eq!(sum.unwrap(), vec![wrapping_sum(&data)]);
        assert!(n <= 3, "run_async was polled {n} times");
        let mut rec = ctx.recorder();
        let _ = rec.cumsum(&x).unwrap();
        let (done, n) = polls(rec.submit().unwrap().wait_async());
        done.unwrap();
        assert!(n <= 3, "wait_async without reads was polled {n} times");
        checked += 1;
    }
    assert_eq!(checked, 5);
}

#[test]
fn async_api_waits_without_blocking_calls() {
    // The calls a web app makes (no blocking wait anywhere), driven here by a simple executor.
    let mut rng = rng("async_api");
    let data = random_f32(&mut rng, 100_003);
    let want: f64 = data.iter().map(|&v| f64::from(v)).sum();
    pollster::block_on(async {
        let options = ContextOptions::default().with_testing(wgpu_reduce::Testing::poisoned());
        let ctx = Context::new_async(options).await.unwrap();
        let x = ctx.upload(&data).unwrap();
        let mut rec = ctx.recorder();
        let s = rec.sum(&x, .., false).unwrap();
        let m = rec.max(&x, .., false).unwrap();
        let (ts, tm) = (rec.read(&s).unwrap(), rec.read(&m).unwrap());
        let results = rec.submit().unwrap().wait_async().await.unwrap();
        let got = f64::from(results.scalar(&ts).unwrap());
        let tol = common::f32_sum_tolerance(data.len(), data.len() as f64, ctx.tuning());
        assert!(
            (got - want).abs() <= tol,
            "sum {got} vs {want} (tolerance {tol})"
        );
        let max = data.iter().copied().fold(f32::MIN, f32::max);
        assert_eq!(results.scalar(&tm).unwrap(), max);
        // A result that stayed on the GPU, read on its own; a submission without reads.
        assert_eq!(ctx.read_async(&m).await.unwrap(), vec![max]);
        let mut rec = ctx.recorder();
        let c = rec.cumsum(&x).unwrap();
        rec.submit().unwrap().wait_async().await.unwrap();
        let c = ctx.read_async(&c).await.unwrap();
        assert_eq!(c.len(), data.len());
        assert_eq!(c[0], data[0]);
    });
}

#[test]
fn a_cancelled_async_wait_keeps_its_buffer_out_of_the_pool() {
    // Poll wait_async once and drop it: the staging buffer's map may still be pending, so the
    // pool must not lease it again (a second map of it would be a wgpu validation error).
    use std::future::Future;
    let ctx = private_ctx();
    let x = ctx.upload(&[1.5f32; 1000]).unwrap();
    for _ in 0..5 {
        let mut rec = ctx.recorder();
        let s = rec.sum(&x, .., false).unwrap();
        let _ = rec.read(&s).unwrap();
        let mut wait = Box::pin(rec.submit().unwrap().wait_async());
        let waker = std::task::Waker::noop();
        let _ = wait
            .as_mut()
            .poll(&mut std::task::Context::from_waker(waker));
        drop(wait);
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            1500.0
        );
    }
}

#[test]
fn waits_that_spin_before_blocking_give_the_same_results() {
    // The spin before a blocking wait (on by default on GPUs, off on CPU adapters like
    // lavapipe) forced on, long and short: reads, waits without reads, one-liners, scans.
    let mut rng = rng("spin_waits");
    let data = random_i32(&mut rng, 100_003);
    for spin in [
        std::time::Duration::from_millis(5),
        std::time::Duration::from_micros(1),
    ] {
        let ctx = Context::with_options(
            ContextOptions::default()
                .with_wait_spin(Some(spin))
                .with_testing(wgpu_reduce::Testing::poisoned()),
        )
        .unwrap();
        let x = ctx.upload(&data).unwrap();
        for _ in 0..20 {
            assert_eq!(
                ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
                wrapping_sum(&data)
            );
            let mut rec = ctx.recorder();
            let m = rec.max(&x, .., false).unwrap();
            rec.submit().unwrap().wait().unwrap();
            assert_eq!(ctx.read(&m).unwrap(), vec![*data.iter().max().unwrap()]);
        }
        let c = ctx.run(|rec| rec.cumsum(&x)).unwrap();
        assert_eq!(c.last().copied(), Some(wrapping_sum(&data)));
    }
}

/// `Context::prepare` compiles a family's kernels ahead: the first calls of those operations
/// then compile nothing (counted), and give the right results.
#[test]
fn prepare_compiles_ahead_of_the_first_call() {
    use wgpu_reduce::{DType, Prepare, ScanOp};
    let ctx = private_ctx();
    let mut rng = rng("prepare");
    // llvmpipe's GL compiler takes about a second a kernel: there, one family.
    let gl = ctx.capabilities().adapter.backend == wgpu::Backend::Gl;
    let all = [
        Prepare::reduce(ReduceOp::Sum, DType::I32),
        Prepare::reduce(ReduceOp::Argmax, DType::F32),
        Prepare::scan(ScanOp::Add, DType::I32),
    ];
    let wanted = if gl { &all[..1] } else { &all[..] };
    let n = ctx.prepare(wanted).unwrap();
    assert!(n >= if gl { 8 } else { 20 }, "{n} pipelines compiled");
    assert_eq!(ctx.stats().pipelines_compiled, n as u64);
    assert_eq!(ctx.prepare(wanted).unwrap(), 0, "nothing left to compile");
    let mut checked = 0;
    for len in [1000, 100_003, 3 * 4096 * 64 + 5] {
        let v = random_i32(&mut rng, len);
        let f = random_f32(&mut rng, len);
        let x = ctx.upload(&v).unwrap();
        let y = ctx.upload(&f).unwrap();
        let m = ctx
            .upload_shaped(&v[..len / 10 * 10], &[len / 10, 10])
            .unwrap();
        let before = ctx.stats().pipelines_compiled;
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            wrapping_sum(&v)
        );
        let want_sum0: Vec<i32> = (0..10)
            .map(|c| (0..len / 10).fold(0i32, |a, r| a.wrapping_add(v[r * 10 + c])))
            .collect();
        assert_eq!(ctx.run(|rec| rec.sum(&m, 0, false)).unwrap(), want_sum0);
        if !gl {
            let best = (0..len).fold(0, |b, i| if f[i] > f[b] { i } else { b });
            assert_eq!(
                ctx.run(|rec| rec.argmax(&y, .., false))
                    .map(|v| v[0])
                    .unwrap() as usize,
                best
            );
            let c = ctx.run(|rec| rec.cumsum(&x)).unwrap();
            let got = c;
            let mut acc = 0i32;
            for (i, (&g, &e)) in got.iter().zip(&v).enumerate() {
                acc = acc.wrapping_add(e);
                assert_eq!(g, acc, "cumsum element {i} of {len}");
            }
        }
        assert_eq!(
            ctx.stats().pipelines_compiled,
            before,
            "the prepared calls compiled nothing (n = {len})"
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
    // An operation that does not take the type is refused, as its call would be.
    let err = ctx.prepare(&[Prepare::reduce(ReduceOp::Norm2, DType::I32)]);
    assert!(
        matches!(
            err,
            Err(Error::UnsupportedInput {
                op: "norm2",
                input: DType::I32,
                ..
            })
        ),
        "{err:?}"
    );
}

/// The pipeline cache is written to the directory asked for (where the backend has one), is
/// read by the next context, and a file that cannot be written is a typed error.
#[test]
fn pipeline_cache_round_trip() {
    let dir = std::env::temp_dir().join(format!("wgpu-reduce-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let with_cache = |dir: &std::path::Path| {
        Context::with_options(
            ContextOptions::default().with_pipeline_cache_dir(Some(dir.to_path_buf())),
        )
        .unwrap()
    };
    let mut rng = rng("pipeline cache");
    let v = random_i32(&mut rng, 5000);
    let ctx = with_cache(&dir);
    let x = ctx.upload(&v).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
        *v.iter().max().unwrap()
    );
    if !ctx.has_pipeline_cache() {
        // GL and Metal have none: nothing is written.
        assert_eq!(ctx.save_pipeline_cache().unwrap(), None);
        assert!(!dir.exists());
        return;
    }
    let file = ctx.save_pipeline_cache().unwrap().expect("a file written");
    assert!(file.starts_with(&dir), "{file:?}");
    assert!(std::fs::metadata(&file).unwrap().len() > 0);
    assert_eq!(ctx.save_pipeline_cache().unwrap(), None, "nothing new");
    drop((x, ctx));
    let again = with_cache(&dir);
    let x = again.upload(&v).unwrap();
    assert_eq!(
        again.run(|rec| rec.max(&x, .., false)).unwrap(),
        vec![*v.iter().max().unwrap()]
    );
    // A directory that is a file: the write fails with the path in the error.
    let blocked = dir.join("not-a-directory");
    std::fs::write(&blocked, b"x").unwrap();
    let ctx = with_cache(&blocked.join("inner"));
    let x = ctx.upload(&v).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.min(&x, .., false)).map(|v| v[0]).unwrap(),
        *v.iter().min().unwrap()
    );
    let err = ctx.save_pipeline_cache();
    assert!(
        matches!(&err, Err(Error::PipelineCache { path, .. }) if path.starts_with(&blocked)),
        "{err:?}"
    );
    drop((x, ctx));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A context with `options` and poisoned temporaries; whether its adapter shares memory with
/// the CPU, and whether it has `MAPPABLE_PRIMARY_BUFFERS`.
fn memory_ctx(options: ContextOptions) -> (Context, bool, bool) {
    let ctx =
        Context::with_options(options.with_testing(wgpu_reduce::Testing::poisoned())).unwrap();
    let shared = matches!(
        ctx.capabilities().adapter.device_type,
        wgpu::DeviceType::Cpu | wgpu::DeviceType::IntegratedGpu
    );
    let has = ctx
        .device()
        .features()
        .contains(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS);
    (ctx, shared, has)
}

/// Uploads on adapters that share memory with the CPU write in place (a buffer mapped at
/// creation): the data, a 16-bit tail padded to a whole word, and the arrays' use by kernels
/// are the same as through the staging copy, checked element by element in every setting; so are
/// arrays given up to `read_into_vec`, read from their own memory unless another handle exists.
#[test]
fn uploads_in_place_where_memory_is_shared() {
    use wgpu_reduce::half::f16;
    let mut rng = rng("unified memory");
    let mut checked = 0;
    for setting in [None, Some(false), Some(true)] {
        let (ctx, shared, has) = memory_ctx(ContextOptions::default().with_unified_memory(setting));
        let caps = ctx.capabilities();
        assert_eq!(
            caps.unified_memory,
            has && setting.unwrap_or(shared),
            "{setting:?}"
        );
        if setting.is_none() && shared && caps.adapter.backend == wgpu::Backend::Vulkan {
            assert!(caps.unified_memory, "lavapipe writes uploads in place");
        }
        for len in [1, 3, 1001, 70_001] {
            let v = random_i32(&mut rng, len);
            let x = ctx.upload(&v).unwrap();
            assert_eq!(ctx.read(&x).unwrap(), v);
            assert_eq!(
                ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
                wrapping_sum(&v)
            );
            let h: Vec<f16> = random_f32(&mut rng, len)
                .into_iter()
                .map(f16::from_f32)
                .collect();
            let y = ctx.upload(&h).unwrap();
            assert_eq!(ctx.read(&y).unwrap(), h, "{len} f16 ({setting:?})");
            let want = h.iter().fold(f16::NEG_INFINITY, |a, &b| a.max(b));
            assert_eq!(
                ctx.run(|rec| rec.max(&y, .., false)).map(|v| v[0]).unwrap(),
                want
            );
            // Arrays given up are read from their own memory where it is shared, unless
            // another handle to them exists.
            let before = ctx.stats().mapped_reads;
            assert_eq!(ctx.read_into_vec(ctx.upload(&v).unwrap()).unwrap(), v);
            assert_eq!(ctx.read_into_vec(y).unwrap(), h, "{len} f16 ({setting:?})");
            let mut run = 0i32;
            let prefix: Vec<i32> = v
                .iter()
                .map(|&a| {
                    run = run.wrapping_add(a);
                    run
                })
                .collect();
            let mut rec = ctx.recorder();
            let c = rec.cumsum(&x).unwrap();
            let _ = rec.submit().unwrap();
            let held = c.clone();
            assert_eq!(ctx.read_into_vec(c).unwrap(), prefix, "a clone is alive");
            assert_eq!(
                ctx.stats().mapped_reads - before,
                2 * u64::from(caps.unified_memory)
            );
            assert_eq!(
                ctx.run(|rec| rec.sum(&held, .., false))
                    .map(|v| v[0])
                    .unwrap(),
                wrapping_sum(&prefix),
                "the clone still works"
            );
            let before = ctx.stats().mapped_reads;
            assert_eq!(ctx.read_into_vec(held).unwrap(), prefix);
            assert_eq!(
                ctx.stats().mapped_reads - before,
                u64::from(caps.unified_memory)
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 12);
}

/// The blocking calls that return values read the buffer their last pass wrote, with no copy,
/// where `mapped_results` is on (by default wherever wgpu allows it, as on lavapipe); results are checked against f64 references in every setting, with temporaries
/// poisoned, and repeated so that pooled mapped buffers are reused. An array the caller holds is
/// never mapped.
/// `Context::run` maps the result buffer only where nothing outside the recording holds it: an
/// array the caller still holds (a result made in memory the CPU maps, read again through
/// `run`) is copied, and stays usable; the same result, made and read in one step, is mapped.
#[test]
fn arrays_the_caller_holds_are_copied_not_mapped() {
    let (ctx, _, has) = memory_ctx(ContextOptions::default());
    let mut rng = rng("held results");
    let v = random_i32(&mut rng, 50_001);
    let x = ctx.upload(&v).unwrap();
    let mapped = |ctx: &Context| ctx.stats().mapped_reads;
    let before = mapped(&ctx);
    // Made by a one-step recording whose result is mapped, then kept by the caller.
    let mut rec = ctx.recorder();
    let held = rec.sum(&x, .., false).unwrap();
    let _ = rec.submit().unwrap();
    let again = ctx.run(|_| Ok(held.clone())).unwrap();
    assert_eq!(again, vec![wrapping_sum(&v)]);
    assert_eq!(mapped(&ctx), before, "a held array is copied");
    // Still usable, and the one-step form of the same result is mapped where results are.
    assert_eq!(
        ctx.run(|rec| rec.sum(&held, .., false)).unwrap(),
        vec![wrapping_sum(&v)]
    );
    let one_step = mapped(&ctx) - before;
    assert_eq!(
        one_step,
        u64::from(has && ctx.capabilities().mapped_results)
    );
}

#[test]
fn blocking_results_are_mapped_without_a_copy() {
    let mut rng = rng("mapped results");
    let mut checked = 0;
    // Some(true) is None wherever wgpu allows the mapping (every adapter the tests run on):
    // the default and off.
    for setting in [None, Some(false)] {
        let (ctx, shared, has) = memory_ctx(ContextOptions::default().with_mapped_results(setting));
        let caps = ctx.capabilities();
        let on = has && setting.unwrap_or(true);
        assert_eq!(caps.mapped_results, on, "{setting:?}");
        if setting.is_none() && caps.adapter.backend == wgpu::Backend::Vulkan {
            assert!(on, "Vulkan maps results");
        }
        for round in 0..2 {
            let n = 100_003 + round;
            let v = random_i32(&mut rng, n);
            let f = random_f32(&mut rng, n);
            let g = random_f32(&mut rng, n);
            let (x, y, z) = (
                ctx.upload(&v).unwrap(),
                ctx.upload(&f).unwrap(),
                ctx.upload(&g).unwrap(),
            );
            let before = ctx.stats().mapped_reads;
            assert_eq!(
                ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
                wrapping_sum(&v)
            );
            // Ties are as unlikely as equal random floats; the first index of the largest.
            let want_arg = (0..n).fold(0, |b, i| if f[i] > f[b] { i } else { b });
            assert_eq!(
                ctx.run(|rec| rec.argmax(&y, .., false))
                    .map(|v| v[0])
                    .unwrap() as usize,
                want_arg
            );
            let abs: f64 = f.iter().map(|&a| f64::from(a).abs()).sum();
            let tol = common::f32_sum_tolerance(n, abs, ctx.tuning()) / n as f64;
            let mean: f64 = f.iter().map(|&a| f64::from(a)).sum::<f64>() / n as f64;
            let got = f64::from(
                ctx.run(|rec| rec.mean(&y, .., false))
                    .map(|v| v[0])
                    .unwrap(),
            );
            assert!(
                (got - mean).abs() <= tol,
                "mean {got} vs {mean} (tolerance {tol:e})"
            );
            let prods: f64 = f
                .iter()
                .zip(&g)
                .map(|(&a, &b)| (f64::from(a) * f64::from(b)).abs())
                .sum();
            let dot: f64 = f
                .iter()
                .zip(&g)
                .map(|(&a, &b)| f64::from(a) * f64::from(b))
                .sum();
            let tol = common::f32_sum_tolerance(n, prods, ctx.tuning());
            let got = f64::from(
                ctx.run(|rec| rec.dot(&y, &z, .., false))
                    .map(|v| v[0])
                    .unwrap(),
            );
            assert!(
                (got - dot).abs() <= tol,
                "dot {got} vs {dot} (tolerance {tol:e})"
            );
            // 3,000 results (12 KB: above MAPPED_RESULT_MAX_BYTES, mapped only on shared memory).
            let rows = 3_000;
            let w = ctx.upload_shaped(&v[..rows * 7], &[rows, 7]).unwrap();
            let want: Vec<i32> = v[..rows * 7].chunks(7).map(wrapping_sum).collect();
            assert_eq!(ctx.run(|rec| rec.sum(&w, 1, false)).unwrap(), want);
            let mapped = ctx.stats().mapped_reads - before;
            let want_mapped = match (on, shared) {
                (false, _) => 0,
                (true, true) => 5,
                (true, false) => 4,
            };
            assert_eq!(mapped, want_mapped, "{setting:?} round {round}");
            // A result the caller holds is read through a copy.
            let mut rec = ctx.recorder();
            let held = rec.sum(&x, .., false).unwrap();
            let _ = rec.submit().unwrap();
            assert_eq!(ctx.read(&held).unwrap(), vec![wrapping_sum(&v)]);
            assert_eq!(ctx.stats().mapped_reads - before, want_mapped);
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}

/// A call repeated on the same arrays reuses the bind groups of the last one (counted); an
/// array uploaded after another was dropped gets its own, and every result is the right one.
#[test]
fn bind_groups_are_reused_while_their_arrays_live() {
    let ctx = private_ctx();
    let mut rng = rng("bind groups");
    let v = random_i32(&mut rng, 300_001);
    let x = ctx.upload(&v).unwrap();
    for _ in 0..2 {
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            wrapping_sum(&v)
        );
    }
    let made = ctx.stats().bind_groups;
    assert!(made >= 1, "{made}");
    for _ in 0..5 {
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            wrapping_sum(&v)
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
            *v.iter().max().unwrap()
        );
    }
    let after_max = ctx.stats().bind_groups;
    for _ in 0..5 {
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            wrapping_sum(&v)
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
            *v.iter().max().unwrap()
        );
    }
    assert_eq!(
        ctx.stats().bind_groups,
        after_max,
        "repeated calls made no bind group"
    );
    // New arrays of the same size (the old one dropped first, so its memory may be reused),
    // each read through its own bind groups; trimming the pool drops the kept ones.
    let mut x = x;
    for round in 0..3 {
        let w = random_i32(&mut rng, 300_001);
        drop(x);
        x = ctx.upload(&w).unwrap();
        let before = ctx.stats().bind_groups;
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            wrapping_sum(&w),
            "round {round}"
        );
        assert_eq!(
            ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
            *w.iter().max().unwrap()
        );
        assert!(ctx.stats().bind_groups > before, "round {round}");
        ctx.trim_pool();
        assert_eq!(
            ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
            wrapping_sum(&w),
            "round {round}, trimmed"
        );
    }
}

/// A recording of many operations repeated on the same arrays reuses its bind groups (counted):
/// after the first two recordings of 200 sums (the second's results get the pool's buffers in
/// another order than the first's), later ones make none. Every result is checked.
#[test]
fn repeated_large_recordings_reuse_their_bind_groups() {
    let ctx = private_ctx();
    let mut rng = rng("repeated large recordings");
    let inputs: Vec<Vec<i32>> = (0..200)
        .map(|_| {
            let n = rand::Rng::gen_range(&mut rng, 1..5000);
            random_i32(&mut rng, n)
        })
        .collect();
    let arrays: Vec<_> = inputs.iter().map(|v| ctx.upload(v).unwrap()).collect();
    let mut made = Vec::new();
    let mut checked = 0;
    for _ in 0..5 {
        let before = ctx.stats().bind_groups;
        let mut rec = ctx.recorder();
        let sums: Vec<_> = arrays
            .iter()
            .map(|x| rec.sum(x, .., false).unwrap())
            .collect();
        let tokens: Vec<_> = sums.iter().map(|s| rec.read(s).unwrap()).collect();
        let res = rec.submit().unwrap().wait().unwrap();
        for (t, v) in tokens.iter().zip(&inputs) {
            assert_eq!(res.scalar(t).unwrap(), wrapping_sum(v));
            checked += 1;
        }
        drop(sums);
        made.push(ctx.stats().bind_groups - before);
    }
    assert_eq!(checked, 1000);
    assert!(made[0] >= 200, "{made:?}");
    assert_eq!(
        &made[2..],
        &[0, 0, 0],
        "bind groups made per recording: {made:?}"
    );
}

/// A recording's dispatches are encoded level by level: random recordings of scans (both
/// algorithms, into new arrays and into arrays written before), scans of earlier results and
/// maxima, on i32 data, give exactly the CPU's results, and levelled they never wait at more
/// barriers than in the order recorded.
#[test]
fn levelled_recordings_match_the_order_recorded() {
    use rand::Rng;
    use wgpu_reduce::{Scan, ScanAlgorithm, ScanOp};
    let mut rng = rng("levelled_recordings_match_the_order_recorded");
    let ctx = common::poisoned_context();
    let tile = ctx.scan_tile();
    // (kind, source, target): 0 scan by reduce-then-scan into a new array, 1 by Auto into a
    // new array, 2 scan into the earlier array `target`, 3 the maximum of `source`.
    let (mut checked, mut expected) = (0, 0);
    let mut fewer = 0;
    for case in 0..6 {
        let lens = [5 * tile + rng.gen_range(1..1000), rng.gen_range(1..3000)];
        let n = lens[case % 2];
        let mut cpu: Vec<Vec<i32>> = (0..2)
            .map(|_| (0..n).map(|_| rng.gen_range(-1000..1000)).collect())
            .collect();
        let mut plan = Vec::new();
        let mut long = vec![true, true]; // arrays of n elements (maxima are of one)
        for _ in 0..12 {
            let kind = rng.gen_range(0..4u32);
            let candidates: Vec<usize> = (0..long.len()).filter(|&a| long[a]).collect();
            let source = candidates[rng.gen_range(0..candidates.len())];
            let targets: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&a| a >= 2 && a != source)
                .collect();
            let kind = if kind == 2 && targets.is_empty() {
                0
            } else {
                kind
            };
            let target = match kind {
                2 => targets[rng.gen_range(0..targets.len())],
                _ => long.len(),
            };
            let want = match kind {
                3 => vec![*cpu[source].iter().max().unwrap()],
                _ => cpu[source]
                    .iter()
                    .scan(0i32, |acc, &a| {
                        *acc = acc.wrapping_add(a);
                        Some(*acc)
                    })
                    .collect(),
            };
            if kind == 2 {
                cpu[target] = want;
            } else {
                long.push(kind != 3);
                cpu.push(want);
            }
            plan.push((kind, source, target));
        }
        expected += cpu.len();
        let barriers;
        {
            let mut arrays: Vec<GpuArray<i32>> =
                cpu[..2].iter().map(|v| ctx.upload(v).unwrap()).collect();
            let mut rec = ctx.recorder();
            for &(kind, source, target) in &plan {
                let alg =
                    [ScanAlgorithm::ReduceThenScan, ScanAlgorithm::Auto][(kind == 1) as usize];
                let scan = Scan::new(ScanOp::Add).algorithm(alg);
                match kind {
                    2 => rec
                        .scan_into(&arrays[source], &scan, &arrays[target])
                        .unwrap(),
                    3 => {
                        let m = rec.max(&arrays[source], .., false).unwrap();
                        arrays.push(m);
                    }
                    _ => {
                        let y = rec.scan::<i32, i32>(&arrays[source], &scan).unwrap();
                        arrays.push(y);
                    }
                }
            }
            barriers = [rec.barriers_as_recorded(), rec.barriers()];
            let tickets: Vec<_> = arrays.iter().map(|a| rec.read(a).unwrap()).collect();
            let res = rec.submit().unwrap().wait().unwrap();
            for (a, t) in tickets.iter().enumerate() {
                assert_eq!(
                    res.get(t).unwrap(),
                    cpu[a],
                    "case {case}: array {a} of plan {plan:?}"
                );
                checked += 1;
            }
        }
        assert!(
            barriers[1] <= barriers[0],
            "case {case}: {barriers:?} barriers (in order, levelled), plan {plan:?}"
        );
        fewer += usize::from(barriers[1] < barriers[0]);
    }
    eprintln!("{checked} arrays checked; levelled waited less in {fewer} of 6 recordings");
    assert_eq!(checked, expected);
    assert!(checked >= 6 * 3, "{checked} arrays");
}
