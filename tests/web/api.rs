//! The recorder, typed errors and the web's error model, in the browser.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;
use wgpu_reduce::{Context, ContextOptions, Error, GpuArray, Scan, ScanOp, Subgroups};

#[wasm_bindgen_test]
async fn recorder_batches_chains_and_reads() {
    let ctx = crate::ctx().await;
    let before = ctx.stats();
    let x = ctx.upload(&[3i32, 1, 4, 1, 5, 9]).unwrap();
    let y = ctx
        .upload_shaped(&[1.5f32, -2.0, 0.25, 8.0], &[2, 2])
        .unwrap();
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    let c = rec.scan::<i32, i32>(&x, &Scan::new(ScanOp::Add)).unwrap();
    let e = rec
        .scan::<i32, i32>(&x, &Scan::new(ScanOp::Add).exclusive(true))
        .unwrap();
    let top = rec.max(&c, .., false).unwrap(); // a reduction of a scan recorded before it
    let rows = rec
        .reduce::<f32, f32>(
            &y,
            &wgpu_reduce::Reduction::new(wgpu_reduce::ReduceOp::Sum).axes(1),
        )
        .unwrap();
    let t = (
        rec.read(&s).unwrap(),
        rec.read(&c).unwrap(),
        rec.read(&e).unwrap(),
    );
    let (tt, tr) = (rec.read(&top).unwrap(), rec.read(&rows).unwrap());
    let res = rec.submit().unwrap().wait_async().await.unwrap();
    assert_eq!(res.scalar(&t.0).unwrap(), 23);
    assert_eq!(res.get(&t.1).unwrap(), vec![3, 4, 8, 9, 14, 23]);
    assert_eq!(res.get(&t.2).unwrap(), vec![0, 3, 4, 8, 9, 14]);
    assert_eq!(res.scalar(&tt).unwrap(), 23);
    assert_eq!(res.get(&tr).unwrap(), vec![-0.5, 8.25]);
    let after = ctx.stats();
    assert_eq!(
        after.submissions - before.submissions,
        1,
        "one submission for the batch"
    );
    assert_eq!(
        after.readbacks - before.readbacks,
        1,
        "one readback for the batch"
    );
    // Results stay on the GPU and can be read later.
    assert_eq!(ctx.read_async(&top).await.unwrap(), vec![23]);
}

#[wasm_bindgen_test]
async fn record_into_an_application_encoder() {
    let ctx = crate::ctx().await;
    let x = ctx.upload(&[2.0f32, -7.5, 4.0]).unwrap();
    let out = ctx.zeros::<f32>(&[]).unwrap();
    let mut encoder = ctx.device().create_command_encoder(&Default::default());
    let mut rec = ctx.recorder();
    let lo = rec.min(&x, .., false).unwrap();
    rec.reduce_into(
        &x,
        &wgpu_reduce::Reduction::new(wgpu_reduce::ReduceOp::Max),
        &out,
    )
    .unwrap();
    rec.record_into(&mut encoder).unwrap();
    ctx.queue().submit([encoder.finish()]);
    assert_eq!(ctx.read_async(&lo).await.unwrap(), vec![-7.5]);
    assert_eq!(ctx.read_async(&out).await.unwrap(), vec![4.0]);
}

#[wasm_bindgen_test]
async fn typed_errors() {
    let ctx = crate::ctx().await;
    let empty = ctx.upload::<f32>(&[]).unwrap();
    let e = ctx.recorder().max(&empty, .., false).unwrap_err();
    assert_eq!(e, Error::EmptyInput { op: "max" });
    let e = ctx.upload_shaped(&[1.0f32, 2.0, 3.0], &[2, 2]).unwrap_err();
    assert!(
        e.to_string()
            .contains("shape [2, 2] holds 4 elements, but 3 were given"),
        "{e}"
    );
    let m = ctx.upload_shaped(&[1.0f32; 6], &[2, 3]).unwrap();
    let e = ctx
        .recorder()
        .scan::<f32, f32>(&m, &Scan::new(ScanOp::Add).axis(0))
        .unwrap_err();
    assert!(matches!(e, Error::UnsupportedAxes { .. }), "{e}");
    let e = ctx
        .recorder()
        .reduce::<f32, f32>(
            &m,
            &wgpu_reduce::Reduction::new(wgpu_reduce::ReduceOp::Sum).axes(2),
        )
        .unwrap_err();
    assert!(matches!(e, Error::AxisOutOfRange { .. }), "{e}");
    // A buffer without STORAGE usage cannot be wrapped.
    let b = ctx
        .device()
        .create_buffer(&wgpu_reduce::wgpu::BufferDescriptor {
            label: None,
            size: 16,
            usage: wgpu_reduce::wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
    let e = GpuArray::<f32>::from_buffer(&ctx, b, &[4]).unwrap_err();
    assert!(matches!(e, Error::InvalidBuffer { .. }), "{e}");
    // The adapter's device has no subgroups through wgpu on the web: requiring them fails.
    if !ctx.capabilities().subgroups {
        let e = Context::new_async(ContextOptions::default().with_subgroups(Subgroups::Require))
            .await
            .unwrap_err();
        assert!(
            matches!(
                e,
                Error::FeatureMissing {
                    feature: "SUBGROUP",
                    ..
                }
            ),
            "{e}"
        );
    }
}

/// The one-step form on the web: record, submit, wait and read in one await, for one array
/// and for a tuple of them (the blocking forms do not exist on wasm32, so there is nothing to
/// refuse at run time).
#[wasm_bindgen_test]
async fn one_await_runs_a_recording() {
    use rand::Rng;
    let ctx = crate::ctx().await;
    let mut rng = crate::rng("one_await_runs_a_recording");
    let data: Vec<f32> = (0..100_003).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
    let x = ctx.upload(&data).unwrap();
    let before = ctx.stats();
    let sum = ctx.run_async(|rec| rec.sum(&x, .., false)).await.unwrap();
    let after = ctx.stats();
    assert_eq!(
        (
            after.submissions - before.submissions,
            after.readbacks - before.readbacks
        ),
        (1, 1)
    );
    let want: f64 = data.iter().map(|&v| f64::from(v)).sum();
    let abs: f64 = data.iter().map(|&v| f64::from(v).abs()).sum();
    // The f32 tree sum's bound (see Tuning::f32_sum_error_bound), generously: n * 2^-24 * sum|x|.
    let tol = data.len() as f64 * f64::from(f32::EPSILON) / 2.0 * abs;
    assert_eq!(sum.len(), 1);
    assert!(
        (f64::from(sum[0]) - want).abs() <= tol,
        "sum {} want {want} tol {tol}",
        sum[0]
    );

    let m = ctx.upload_shaped(&[3i32, 1, 4, 1, 5, 9], &[2, 3]).unwrap();
    let (rows, at) = ctx
        .run_async(|rec| Ok((rec.sum(&m, -1, false)?, rec.argmax(&m, .., false)?)))
        .await
        .unwrap();
    assert_eq!((rows, at), (vec![8, 15], vec![5]));
    let c = ctx.run_async(|rec| rec.cumsum(&m)).await.unwrap();
    assert_eq!(c, vec![3, 4, 8, 1, 6, 15]);
}

/// A caller's buffer, wrapped and then destroyed behind the library's back: work that reads it
/// is a wgpu validation error.
fn destroyed_array(ctx: &Context) -> GpuArray<f32> {
    use wgpu_reduce::wgpu::{BufferDescriptor, BufferUsages};
    let buffer = ctx.device().create_buffer(&BufferDescriptor {
        label: Some("destroyed behind the library's back"),
        size: 64,
        usage: BufferUsages::STORAGE | BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let x = GpuArray::<f32>::from_buffer(ctx, buffer.clone(), &[16]).unwrap();
    buffer.destroy();
    x
}

#[wasm_bindgen_test]
async fn an_error_of_the_library_work_comes_back_from_the_next_call() {
    // Fresh contexts, so that a deferred error cannot reach another test.
    let ctx = Context::new_async(ContextOptions::default()).await.unwrap();
    let y = ctx.upload(&[2.0f32, 3.0]).unwrap();
    // Work recorded into the application's encoder: nothing of the library's is awaited, so the
    // browser reports the error later, and the library's next call returns it...
    let x = destroyed_array(&ctx);
    let mut encoder = ctx.device().create_command_encoder(&Default::default());
    let mut rec = ctx.recorder();
    rec.sum(&x, .., false).unwrap();
    rec.record_into(&mut encoder).unwrap();
    ctx.queue().submit([encoder.finish()]);
    let e = ctx.read_async(&y).await.unwrap_err();
    assert!(
        matches!(e, Error::Validation { .. } if e.to_string().contains("destroyed")),
        "{e}"
    );
    assert!(e.to_string().contains("while running earlier work"), "{e}");
    // ...once: the context works again afterwards.
    assert_eq!(ctx.read_async(&y).await.unwrap(), vec![2.0, 3.0]);

    // A call that awaits its own work (wait_async) gets that work's error itself.
    let x = destroyed_array(&ctx);
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    let t = rec.read(&s).unwrap();
    let e = rec.submit().unwrap().wait_async().await.unwrap_err();
    assert!(
        matches!(e, Error::Validation { .. } if e.to_string().contains("destroyed")),
        "{e}"
    );
    let _ = t;
    let mut rec = ctx.recorder();
    let s = rec.sum(&y, .., false).unwrap();
    let t = rec.read(&s).unwrap();
    let res = rec.submit().unwrap().wait_async().await.unwrap();
    assert_eq!(res.scalar(&t).unwrap(), 5.0);
}

#[wasm_bindgen(inline_js = "export function hide_webgpu(hide) {
    if (hide) {
        Object.defineProperty(navigator, 'gpu', { get: () => undefined, configurable: true });
    } else {
        delete navigator.gpu;
    }
}")]
extern "C" {
    /// Hides `navigator.gpu` (as a browser without WebGPU has it), or shows it again.
    fn hide_webgpu(hide: bool);
}

#[wasm_bindgen_test]
async fn a_browser_without_webgpu_is_a_typed_error() {
    hide_webgpu(true);
    // Backends other than the shared contexts' ones, so that wgpu makes a new instance, which
    // looks for navigator.gpu.
    let r = Context::new_async(
        ContextOptions::default().with_backends(wgpu_reduce::wgpu::Backends::BROWSER_WEBGPU),
    )
    .await;
    hide_webgpu(false);
    let Err(e) = r else {
        panic!("a context without navigator.gpu")
    };
    assert!(matches!(e, Error::NoWebGpu { .. }), "{e}");
    assert!(e.to_string().contains("this browser has no WebGPU"), "{e}");
    assert!(e.to_string().contains("navigator.gpu is missing"), "{e}");
}

/// The reductions beyond the basic nine through the async API: a map checked by the browser's
/// compiler (and a bad one rejected with its line), a dot product, a norm, logsumexp, and
/// segmented sums with host and GPU offsets (bad GPU offsets reported at wait).
#[wasm_bindgen_test]
async fn maps_dots_norms_and_segments() {
    use wgpu_reduce::{Axes, Map, ReduceOp, Reduction};
    let ctx = crate::ctx().await;
    let cube = Map::new("fn map(x: f32) -> f32 { return x * x * x; }").unwrap();
    ctx.check_map_async(&cube).await.unwrap();
    // Refused when made (naga, in the browser too), before the browser's compiler sees it.
    let e = Map::new("fn map(x: f32) -> f32 {\n  return x * nope;\n}").unwrap_err();
    assert!(
        matches!(&e, Error::InvalidMap { message } if message.contains("line 2")),
        "{e}"
    );
    let x = ctx.upload(&[1.0f32, -2.0, 3.0, 4.0]).unwrap();
    let y = ctx.upload(&[2.0f32, 1.0, -1.0, 0.5]).unwrap();
    let mut rec = ctx.recorder();
    let cubes = rec
        .reduce::<f32, f32>(&x, &Reduction::new(ReduceOp::Sum).map(&cube))
        .unwrap();
    let dot = rec.dot(&x, &y, .., false).unwrap();
    let norm = rec.norm(&x, 2.0, Axes::All, false).unwrap();
    let lse = rec.logsumexp(&x, Axes::All, false).unwrap();
    let seg = rec
        .segment_reduce::<f32, f32>(&x, ReduceOp::Sum, &[0, 1, 1, 4])
        .unwrap();
    let off = ctx.upload(&[0u32, 3, 4]).unwrap();
    let seg_gpu = rec
        .segment_reduce_gpu::<f32, f32>(&x, ReduceOp::Max, &off)
        .unwrap();
    let t = [
        rec.read(&cubes).unwrap(),
        rec.read(&dot).unwrap(),
        rec.read(&norm).unwrap(),
        rec.read(&lse).unwrap(),
    ];
    let (ts, tg) = (rec.read(&seg).unwrap(), rec.read(&seg_gpu).unwrap());
    let res = rec.submit().unwrap().wait_async().await.unwrap();
    assert_eq!(res.scalar(&t[0]).unwrap(), 1.0 - 8.0 + 27.0 + 64.0);
    // x · y = 1·2 - 2·1 + 3·(-1) + 4·0.5 = -1.
    assert_eq!(res.scalar(&t[1]).unwrap(), -1.0);
    assert!((res.scalar(&t[2]).unwrap() - 30f32.sqrt()).abs() < 1e-5);
    let want = (1f32.exp() + (-2f32).exp() + 3f32.exp() + 4f32.exp()).ln();
    assert!((res.scalar(&t[3]).unwrap() - want).abs() < 1e-4);
    assert_eq!(res.get(&ts).unwrap(), vec![1.0, 0.0, 5.0]);
    assert_eq!(res.get(&tg).unwrap(), vec![3.0, 4.0]);
    let bad_off = ctx.upload(&[0u32, 3, 2]).unwrap();
    let mut rec = ctx.recorder();
    let _ = rec
        .segment_reduce_gpu::<f32, f32>(&x, ReduceOp::Sum, &bad_off)
        .unwrap();
    let e = rec.submit().unwrap().wait_async().await.unwrap_err();
    assert!(matches!(e, Error::InvalidOffsets { segment: 1, .. }), "{e}");
}

/// `Context::prepare` compiles in the browser too (one after another; no pipeline cache
/// there): the prepared calls then compile nothing.
#[wasm_bindgen_test]
async fn prepare_compiles_ahead_in_the_browser() {
    use wgpu_reduce::{DType, Prepare, ReduceOp};
    let ctx = Context::new_async(ContextOptions::default()).await.unwrap();
    assert!(!ctx.has_pipeline_cache());
    let n = ctx
        .prepare(&[
            Prepare::reduce(ReduceOp::Sum, DType::I32),
            Prepare::scan(ScanOp::Add, DType::I32),
        ])
        .unwrap();
    assert!(n >= 10, "{n} pipelines");
    let before = ctx.stats().pipelines_compiled;
    let v: Vec<i32> = (0..50_001).map(|i| (i * 7919 % 2001) - 1000).collect();
    let x = ctx.upload(&v).unwrap();
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    let c = rec.cumsum(&x).unwrap();
    let (ts, tc) = (rec.read(&s).unwrap(), rec.read(&c).unwrap());
    let res = rec.submit().unwrap().wait_async().await.unwrap();
    let total = v.iter().fold(0i32, |a, &b| a.wrapping_add(b));
    assert_eq!(res.scalar(&ts).unwrap(), total);
    assert_eq!(*res.get(&tc).unwrap().last().unwrap(), total);
    assert_eq!(
        ctx.stats().pipelines_compiled,
        before,
        "nothing compiled by the calls"
    );
}
