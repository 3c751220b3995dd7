//! Every error path a caller can reach returns a typed error whose message says what was wrong.

mod common;

use wgpu_reduce::{Context, ContextOptions, DType, Error, GpuArray, ReduceOp, Reduction};

/// A plain buffer of the caller's, with the given size and usage.
fn buffer(ctx: &Context, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    ctx.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("caller's buffer"),
        size,
        usage,
        mapped_at_creation: false,
    })
}

#[test]
fn empty_input_without_identity() {
    let ctx = common::ctx();
    let x = ctx.upload::<f32>(&[]).unwrap();
    let e = ctx
        .run(|rec| rec.max(&x, .., false))
        .map(|v| v[0])
        .unwrap_err();
    assert_eq!(e, Error::EmptyInput { op: "max" });
    assert!(e.to_string().contains("max over zero elements"), "{e}");
    assert!(e.to_string().contains("sum (0) and prod (1)"), "{e}");
    let mut rec = ctx.recorder();
    assert!(matches!(
        rec.mean(&x, .., false),
        Err(Error::EmptyInput { op: "mean" })
    ));
}

#[test]
fn shape_mismatch() {
    let ctx = common::ctx();
    let e = ctx.upload_shaped(&[1.0f32, 2.0, 3.0], &[2, 2]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::ShapeMismatch {
                shape_len: 4,
                len: 3,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("shape [2, 2] holds 4 elements, but 3 were given"),
        "{e}"
    );
    let x = ctx.upload(&[1i32; 6]).unwrap();
    let e = x.reshape(&[4, 2]).unwrap_err();
    assert!(matches!(e, Error::ShapeMismatch { .. }), "{e}");
    assert!(x.reshape(&[3, 2]).is_ok());
    // A shape whose product overflows.
    let e = ctx.upload_shaped(&[1u32], &[usize::MAX, 2]).unwrap_err();
    assert!(matches!(e, Error::ShapeMismatch { .. }), "{e}");
}

#[test]
fn wrapped_buffer_without_storage_usage() {
    let ctx = common::ctx();
    let buffer = buffer(ctx, 64, wgpu::BufferUsages::COPY_DST);
    let e = GpuArray::<f32>::from_buffer(ctx, buffer, &[16]).unwrap_err();
    assert!(matches!(e, Error::InvalidBuffer { .. }), "{e}");
    assert!(e.to_string().contains("needs STORAGE"), "{e}");
}

#[test]
fn wrapped_buffer_of_another_device_or_destroyed() {
    // Contexts the library makes share one wgpu instance, so wgpu can tell the devices apart.
    let a = common::ctx();
    let b = common::ctx_fallback();
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let e = GpuArray::<f32>::from_buffer(a, buffer(b, 64, usage), &[16]).unwrap_err();
    assert!(matches!(e, Error::InvalidBuffer { .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("rejects the buffer on this context's device"),
        "{msg}"
    );
    assert!(msg.contains("doesn't match"), "{msg}");
    let gone = buffer(a, 64, usage);
    gone.destroy();
    let e = GpuArray::<f32>::from_buffer(a, gone, &[16]).unwrap_err();
    assert!(matches!(e, Error::InvalidBuffer { .. }), "{e}");
    // The same buffer on its own device is fine.
    assert!(GpuArray::<f32>::from_buffer(b, buffer(b, 64, usage), &[16]).is_ok());
}

#[test]
fn wrapped_buffer_too_small() {
    let ctx = common::ctx();
    let buffer = buffer(ctx, 64, wgpu::BufferUsages::STORAGE);
    let e = GpuArray::<u32>::from_buffer(ctx, buffer, &[4, 5]).unwrap_err();
    assert!(
        e.to_string()
            .contains("holds 64 bytes, but shape [4, 5] of u32 needs 80 bytes"),
        "{e}"
    );
}

#[test]
fn wrapped_buffers_must_be_whole_words() {
    use half::{bf16, f16};
    let ctx = common::ctx();
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let not_words = |e: Error, bytes: u64, _: &str| {
        assert!(
            matches!(
                e,
                Error::Misaligned { what: "the range's length", value, alignment: 4, .. }
                    if value == bytes
            ),
            "{e}"
        );
        let msg = e.to_string();
        assert!(
            msg.contains(&format!("length = {bytes} is not a multiple of 4 bytes")),
            "{msg}"
        );
        assert!(msg.contains("32-bit word"), "{msg}");
    };
    // Three 16-bit values in 6 bytes: kernels read the second word whole.
    let e = GpuArray::<f16>::from_buffer(ctx, buffer(ctx, 6, usage), &[3]).unwrap_err();
    not_words(e, 6, "8 bytes for these 3 elements of f16");
    let e = GpuArray::<bf16>::from_buffer(ctx, buffer(ctx, 6, usage), &[3]).unwrap_err();
    not_words(e, 6, "8 bytes for these 3 elements of bf16");
    let e = GpuArray::<f32>::from_buffer(ctx, buffer(ctx, 6, usage), &[1]).unwrap_err();
    not_words(e, 6, "4 bytes for these 1 elements of f32");
    // A 2-byte buffer of another device: refused at any size (it cannot be bound to check
    // whose it is, and was once taken and read as zeros).
    let other = common::ctx_fallback();
    let e = GpuArray::<f16>::from_buffer(ctx, buffer(other, 2, usage), &[1]).unwrap_err();
    not_words(e, 2, "4 bytes for these 1 elements of f16");
    let e = GpuArray::<f32>::from_buffer(ctx, buffer(ctx, 0, usage), &[0]).unwrap_err();
    not_words(e, 0, "4 bytes for these 0 elements of f32");
    // Rounded up to whole words, the same values read, reduce and scan.
    let b = buffer(ctx, 8, usage);
    let v = [f16::from_f32(1.5), f16::from_f32(-4.0), f16::from_f32(2.25)];
    ctx.queue().write_buffer(
        &b,
        0,
        bytemuck::cast_slice(&[v[0], v[1], v[2], f16::from_f32(99.0)]),
    );
    let x = GpuArray::<f16>::from_buffer(ctx, b, &[3]).unwrap();
    assert_eq!(ctx.read(&x).unwrap(), v.to_vec());
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        f16::from_f32(-0.25)
    );
    assert_eq!(
        ctx.run(|rec| rec.max(&x, .., false)).map(|v| v[0]).unwrap(),
        f16::from_f32(2.25)
    );
    assert_eq!(
        ctx.run(|rec| rec.cumsum(&x)).unwrap(),
        vec![1.5f32, -2.5, -0.25]
    );
}

#[test]
fn reading_a_buffer_without_copy_src() {
    let ctx = common::ctx();
    let buffer = buffer(ctx, 64, wgpu::BufferUsages::STORAGE);
    let x = GpuArray::<f32>::from_buffer(ctx, buffer, &[16]).unwrap();
    let e = ctx.read(&x).unwrap_err();
    assert!(matches!(e, Error::InvalidBuffer { .. }), "{e}");
    assert!(e.to_string().contains("COPY_SRC"), "{e}");
}

#[test]
fn arrays_from_another_context() {
    let a = common::ctx();
    let b = common::ctx_fallback();
    let x = a.upload(&[1.0f32, 2.0]).unwrap();
    let e = b.run(|rec| rec.sum(&x, .., false)).unwrap_err();
    assert_eq!(
        e,
        Error::WrongContext {
            what: "the input array"
        }
    );
    assert!(e.to_string().contains("another Context"), "{e}");
    let mut rec = b.recorder();
    let e = rec.read(&x).unwrap_err();
    assert!(matches!(e, Error::WrongContext { .. }), "{e}");
    let y = b.upload(&[1.0f32, 2.0]).unwrap();
    let e = rec
        .reduce_into(
            &y,
            &Reduction::new(ReduceOp::Sum),
            &x.reshape(&[2]).unwrap(),
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::WrongContext {
                what: "the output array"
            }
        ),
        "{e}"
    );
}

#[test]
fn output_of_the_wrong_type_or_length() {
    let ctx = common::ctx();
    let x = ctx.upload(&[1i32, 2, 3]).unwrap();
    let wrong_type = ctx.upload(&[0i32]).unwrap();
    let mut rec = ctx.recorder();
    let e = rec
        .reduce_into(&x, &Reduction::new(ReduceOp::Mean), &wrong_type)
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::UnsupportedOutput {
                output: DType::I32,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("mean of an array of i32 cannot return i32; allowed result types: f32"),
        "{e}"
    );
    let wrong_len = ctx.upload(&[0i32, 0]).unwrap();
    let e = rec
        .reduce_into(&x, &Reduction::new(ReduceOp::Sum), &wrong_len)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("gives shape [] (1 elements); the output array has 2 elements"),
        "{e}"
    );
}

#[test]
fn arrays_larger_than_a_buffer() {
    // Larger than a binding is fine (reductions cut such arrays into pieces: tests/large.rs),
    // larger than a buffer is not.
    let ctx = Context::with_options(
        ContextOptions::default().with_testing(wgpu_reduce::Testing {
            max_storage_binding_bytes: Some(1024),
            ..Default::default()
        }),
    )
    .unwrap();
    let x = ctx.upload(&[1.0f32; 1000]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        1000.0
    );
    let wrapped = buffer(&ctx, 4096, wgpu::BufferUsages::STORAGE);
    assert!(GpuArray::<f32>::from_buffer(&ctx, wrapped, &[1000]).is_ok());

    let max = ctx.capabilities().limits.max_buffer_size;
    let len = (max / 4 + 1) as usize;
    let e = ctx.zeros::<f32>(&[len]).unwrap_err();
    let limit_name = "max_buffer_size";
    assert!(
        matches!(e, Error::TooLarge { limit, limit_name: n, .. } if limit == max && n == limit_name),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains(&format!("this device allows at most {max} bytes")),
        "{e}"
    );
    // More elements than a kernel can index, and a shape whose size overflows.
    let e = ctx.zeros::<u32>(&[1 << 16, 1 << 16]).unwrap_err();
    assert!(matches!(e, Error::TooLarge { .. }), "{e}");
    let e = ctx.zeros::<u32>(&[usize::MAX, 3]).unwrap_err();
    assert!(e.to_string().contains("2^32 - 1 elements per array"), "{e}");
    // zeros() gives zeros.
    let z = ctx.zeros::<i32>(&[3, 5]).unwrap();
    assert_eq!(
        (z.shape(), ctx.read(&z).unwrap()),
        (&[3usize, 5][..], vec![0; 15])
    );
}

#[test]
fn adapter_name_that_matches_nothing() {
    let e = Context::with_options(
        ContextOptions::default().with_adapter_name(Some("no-such-adapter-3141".into())),
    )
    .unwrap_err();
    match &e {
        Error::AdapterNotFound { wanted, available } => {
            assert_eq!(wanted, "no-such-adapter-3141");
            assert!(!available.is_empty(), "the existing adapters are listed");
        }
        other => panic!("expected AdapterNotFound, got {other}"),
    }
    assert!(e.to_string().contains("available adapters"), "{e}");
}

#[test]
fn no_adapter_on_the_requested_backends() {
    // This test machine has Vulkan (lavapipe) but no Metal or DX12 driver.
    if cfg!(any(target_os = "macos", target_os = "windows")) {
        return;
    }
    let e = Context::with_options(
        ContextOptions::default()
            .with_backends(wgpu::Backends::METAL | wgpu::Backends::DX12)
            .with_adapter_name(None),
    )
    .unwrap_err();
    assert!(matches!(e, Error::NoAdapter { .. }), "{e}");
    assert!(e.to_string().contains("WGPU_BACKEND"), "{e}");
}

#[test]
fn lost_device_gives_errors_not_panics() {
    let ctx = Context::with_options(ContextOptions::default()).unwrap();
    let x = ctx.upload(&[1.0f32, 2.0, 3.0]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        6.0
    );
    ctx.device().destroy();
    let e = ctx
        .run(|rec| rec.sum(&x, .., false))
        .map(|v| v[0])
        .unwrap_err();
    assert!(matches!(e, Error::DeviceLost { .. }), "{e}");
    assert!(e.to_string().contains("create a new Context"), "{e}");
    let e = ctx.upload(&[1.0f32]).unwrap_err();
    assert!(matches!(e, Error::DeviceLost { .. }), "{e}");
}

#[test]
fn every_call_after_a_lost_device_is_an_error() {
    let ctx = Context::with_options(ContextOptions::default()).unwrap();
    let x = ctx
        .upload_shaped(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])
        .unwrap();
    // Work submitted before the loss, waited for after it: an error, not a hang.
    let mut rec = ctx.recorder();
    let s = rec.sum(&x, .., false).unwrap();
    let _ = rec.read(&s).unwrap();
    let pending = rec.submit().unwrap();
    ctx.device().destroy();
    let lost = |r: Result<(), Error>, what: &str| {
        let e = r.expect_err(what);
        assert!(matches!(e, Error::DeviceLost { .. }), "{what}: {e}");
    };
    if let Err(e) = pending.wait() {
        assert!(matches!(e, Error::DeviceLost { .. }), "waiting: {e}");
    }
    lost(ctx.read(&x).map(drop), "read");
    lost(ctx.zeros::<f32>(&[4]).map(drop), "zeros");
    lost(
        ctx.run(|rec| rec.max(&x, .., false))
            .map(|v| v[0])
            .map(drop),
        "max",
    );
    lost(ctx.run(|rec| rec.cumsum(&x)).map(drop), "cumsum");
    let mut rec = ctx.recorder();
    let recorded = rec.mean(&x, 0, false).map(drop);
    lost(recorded.and_then(|()| rec.submit().map(drop)), "recorder");
    lost(
        pollster::block_on(ctx.read_async(&x)).map(drop),
        "read_async",
    );
    // A context made afterwards on the destroyed device (whose loss callback the application
    // owns) fails on first use with wgpu's validation error.
    let late = Context::from_wgpu(
        ctx.device().clone(),
        ctx.queue().clone(),
        Default::default(),
    );
    let e = late
        .and_then(|c| c.upload(&[1.0f32]).map(drop))
        .unwrap_err();
    assert!(matches!(e, Error::Validation { .. }), "{e}");
    assert!(e.to_string().contains("while uploading an array"), "{e}");
}

#[test]
fn wgpu_validation_errors_are_captured() {
    // A caller's buffer destroyed behind the library's back: wgpu rejects its use; the library
    // returns the validation error instead of letting wgpu's default handler panic.
    let ctx = common::ctx();
    let buffer = buffer(
        ctx,
        64,
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    );
    let x = GpuArray::<f32>::from_buffer(ctx, buffer.clone(), &[16]).unwrap();
    buffer.destroy();
    let e = ctx
        .run(|rec| rec.sum(&x, .., false))
        .map(|v| v[0])
        .unwrap_err();
    assert!(matches!(e, Error::Validation { .. }), "{e}");
    assert!(e.to_string().contains("wgpu validation error"), "{e}");
    // The context still works afterwards.
    let y = ctx.upload(&[2.0f32, 3.0]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&y, .., false)).map(|v| v[0]).unwrap(),
        5.0
    );
}

#[test]
fn required_subgroups_on_a_device_without_them() {
    // The application made its device without Features::SUBGROUP.
    let (device, queue) = common::app_device();
    let options = |subgroups| ContextOptions::default().with_subgroups(subgroups);
    let e = Context::from_wgpu(
        device.clone(),
        queue.clone(),
        options(wgpu_reduce::Subgroups::Require),
    )
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
    assert!(
        e.to_string().contains("needs the device feature SUBGROUP"),
        "{e}"
    );
    assert!(e.to_string().contains("Subgroups::Auto"), "{e}");
    // Auto falls back to shared memory on the same device.
    let ctx = Context::from_wgpu(device, queue, options(wgpu_reduce::Subgroups::Auto)).unwrap();
    assert!(!ctx.tuning().subgroups);
    let x = ctx.upload(&[1u32, 2, 3]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        6
    );
}

#[test]
fn axis_out_of_range() {
    let ctx = common::ctx();
    let x = ctx.upload_shaped(&[1.0f32; 6], &[2, 3]).unwrap();
    for axis in [2, -3, 100] {
        let e = ctx
            .recorder()
            .reduce::<f32, f32>(&x, &Reduction::new(ReduceOp::Sum).axes(axis))
            .unwrap_err();
        assert_eq!(e, Error::AxisOutOfRange { axis, ndim: 2 });
        assert!(e.to_string().contains("axes go from -2 to 1"), "{e}");
    }
    let mut rec = ctx.recorder();
    assert!(matches!(
        rec.argmax(&x, 5, false),
        Err(Error::AxisOutOfRange { axis: 5, ndim: 2 })
    ));
    // A 0-d array takes axis 0 or -1 only.
    let s = ctx.upload_shaped(&[4.0f32], &[]).unwrap();
    assert!(rec.sum(&s, -1, false).is_ok());
    assert!(matches!(
        rec.sum(&s, 1, false),
        Err(Error::AxisOutOfRange { axis: 1, ndim: 0 })
    ));
}

#[test]
fn duplicate_axes() {
    let ctx = common::ctx();
    let x = ctx.upload_shaped(&[1.0f32; 24], &[2, 3, 4]).unwrap();
    let mut rec = ctx.recorder();
    let e = rec.sum(&x, [0, -3], false).unwrap_err();
    assert_eq!(
        e,
        Error::DuplicateAxis {
            axis: 0,
            axes: vec![0, -3]
        }
    );
    assert!(e.to_string().contains("name each axis at most once"), "{e}");
    assert!(matches!(
        rec.var(&x, 1, [2, 1, 2], true),
        Err(Error::DuplicateAxis { axis: 2, .. })
    ));
}

#[test]
fn argmax_over_several_axes() {
    let ctx = common::ctx();
    let x = ctx.upload_shaped(&[1.0f32; 24], &[2, 3, 4]).unwrap();
    let e = ctx
        .recorder()
        .reduce::<f32, u32>(&x, &Reduction::new(ReduceOp::Argmax).axes([0, 1]))
        .unwrap_err();
    assert!(
        matches!(e, Error::UnsupportedAxes { op: "argmax", .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("one axis or the whole array"), "{e}");
}

#[test]
fn too_many_dimensions() {
    let ctx = common::ctx();
    let x = ctx
        .upload_shaped(&[1.0f32; 2], &[1, 1, 1, 1, 1, 1, 1, 1, 2])
        .unwrap();
    let e = ctx
        .run(|rec| rec.sum(&x, .., false))
        .map(|v| v[0])
        .unwrap_err();
    assert_eq!(e, Error::TooManyDims { ndim: 9, max: 8 });
    assert!(e.to_string().contains("at most 8"), "{e}");
    // Eight are fine.
    let y = x.reshape(&[1, 1, 1, 1, 1, 1, 1, 2]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&y, .., false)).map(|v| v[0]).unwrap(),
        2.0
    );
}

#[test]
fn unsupported_result_types() {
    let ctx = common::ctx();
    let x = ctx.upload(&[1.0f32, 2.0]).unwrap();
    // f32 input: a 16-bit result is not offered (PyTorch's dtype= only widens).
    let e = ctx
        .recorder()
        .reduce::<f32, half::f16>(&x, &Reduction::new(ReduceOp::Sum))
        .unwrap_err();
    assert_eq!(
        e,
        Error::UnsupportedOutput {
            op: "sum",
            input: DType::F32,
            output: DType::F16,
            allowed: "f32".into()
        }
    );
    // Indices are u32.
    let e = ctx
        .recorder()
        .reduce::<f32, f32>(&x, &Reduction::new(ReduceOp::Argmin))
        .unwrap_err();
    assert!(e.to_string().contains("allowed result types: u32"), "{e}");
    // f16 input: f16 or f32.
    let h = ctx.upload(&[half::f16::ONE]).unwrap();
    let e = ctx
        .recorder()
        .reduce::<half::f16, half::bf16>(&h, &Reduction::new(ReduceOp::Mean))
        .unwrap_err();
    assert!(
        e.to_string().contains("allowed result types: f16, f32"),
        "{e}"
    );
}

#[test]
fn reduce_to_an_output_of_the_wrong_length() {
    let ctx = common::ctx();
    let x = ctx.upload_shaped(&[1.0f32; 6], &[2, 3]).unwrap();
    let out = ctx.upload(&[0.0f32; 3]).unwrap();
    let mut rec = ctx.recorder();
    let red = Reduction::new(ReduceOp::Sum).axes(1);
    let e = rec.reduce_into(&x, &red, &out).unwrap_err();
    assert!(
        e.to_string()
            .contains("sum of shape [2, 3] gives shape [2] (2 elements); the output array has 3"),
        "{e}"
    );
    // The right length works and leaves the caller's shape alone.
    let out2 = ctx.upload_shaped(&[0.0f32; 2], &[2, 1]).unwrap();
    rec.reduce_into(&x, &red, &out2).unwrap();
    rec.submit().unwrap().wait().unwrap();
    assert_eq!(ctx.read(&out2).unwrap(), vec![3.0, 3.0]);
    assert_eq!(out2.shape(), &[2, 1]);
}

/// f16 needs no device feature here (loads are unpacked from u32 words with integer
/// arithmetic), so an application's device created without SHADER_F16 reduces f16 arrays.
#[test]
fn f16_works_on_a_device_without_shader_f16() {
    let (device, queue) = common::app_device();
    assert!(!device.features().contains(wgpu::Features::SHADER_F16));
    let ctx = Context::from_wgpu(device, queue, ContextOptions::default()).unwrap();
    let h: Vec<half::f16> = (1..=100).map(|i| half::f16::from_f32(i as f32)).collect();
    let x = ctx.upload(&h).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        half::f16::from_f32(5050.0)
    );
    assert_eq!(
        ctx.run(|rec| rec.argmax(&x, .., false))
            .map(|v| v[0])
            .unwrap(),
        99
    );
}

/// Scans: axis other than the last, axis out of range, result type other than the input's
/// accumulator, output of the wrong length, in place, arrays of another context.
#[test]
fn scan_errors() {
    use wgpu_reduce::{Scan, ScanOp};
    let ctx = common::ctx();
    let x = ctx.upload_shaped(&[1.0f32; 6], &[2, 3]).unwrap();
    let mut rec = ctx.recorder();

    let e = rec
        .scan::<f32, f32>(&x, &Scan::new(ScanOp::Add).axis(0))
        .unwrap_err();
    assert!(
        matches!(e, Error::UnsupportedAxes { ref axes, .. } if axes == &vec![0]),
        "{e}"
    );
    assert!(e.to_string().contains("last axis only"), "{e}");
    // axis 1 and -1 are the last axis: fine.
    rec.scan::<f32, f32>(&x, &Scan::new(ScanOp::Add).axis(1))
        .unwrap();

    for axis in [2, -3] {
        let e = rec
            .scan::<f32, f32>(&x, &Scan::new(ScanOp::Max).axis(axis))
            .unwrap_err();
        assert_eq!(e, Error::AxisOutOfRange { axis, ndim: 2 }, "{e}");
    }
    let s = ctx.upload_shaped(&[1i32], &[]).unwrap();
    let e = rec
        .scan::<i32, i32>(&s, &Scan::new(ScanOp::Add).axis(1))
        .unwrap_err();
    assert_eq!(e, Error::AxisOutOfRange { axis: 1, ndim: 0 }, "{e}");
    // Asking which algorithm a scan would take checks its axis the same way.
    let y = ctx.zeros::<f32>(&[2, 3]).unwrap();
    let e = rec
        .scan_algorithm(&x, &Scan::new(ScanOp::Add).axis(0), &y)
        .unwrap_err();
    assert!(matches!(e, Error::UnsupportedAxes { .. }), "{e}");
    let e = rec
        .scan_algorithm(&x, &Scan::new(ScanOp::Add).axis(2), &y)
        .unwrap_err();
    assert_eq!(e, Error::AxisOutOfRange { axis: 2, ndim: 2 }, "{e}");
    rec.scan_algorithm(&x, &Scan::new(ScanOp::Add).axis(-1), &y)
        .unwrap();

    // f16 scans give f32; i32 scans give i32.
    let h = ctx.upload(&[wgpu_reduce::half::f16::ONE; 4]).unwrap();
    let e = rec
        .scan::<wgpu_reduce::half::f16, wgpu_reduce::half::f16>(&h, &Scan::new(ScanOp::Add))
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::UnsupportedOutput {
                input: DType::F16,
                output: DType::F16,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("allowed result types: f32"), "{e}");
    let i = ctx.upload(&[1i32, 2]).unwrap();
    let e = rec
        .scan::<i32, u32>(&i, &Scan::new(ScanOp::Add))
        .unwrap_err();
    assert!(matches!(e, Error::UnsupportedOutput { .. }), "{e}");

    // Output of the wrong length; the input itself as output.
    let out = ctx.upload(&[0.0f32; 5]).unwrap();
    let e = rec
        .scan_into(&x, &Scan::new(ScanOp::Add), &out)
        .unwrap_err();
    assert!(
        matches!(e, Error::InvalidUse(ref m) if m.contains("6 elements")),
        "{e}"
    );
    let e = rec.scan_into(&x, &Scan::new(ScanOp::Add), &x).unwrap_err();
    assert!(
        matches!(e, Error::InvalidUse(ref m) if m.contains("not in place")),
        "{e}"
    );

    // Arrays of another context.
    let other = common::ctx_fallback();
    let e = other.run(|rec| rec.cumsum(&x)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::WrongContext {
                what: "the input array"
            }
        ),
        "{e}"
    );
    let y = other.upload_shaped(&[1.0f32; 6], &[2, 3]).unwrap();
    let e = rec
        .scan_into(&y, &Scan::new(ScanOp::Add), &x.reshape(&[6]).unwrap())
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::WrongContext {
                what: "the input array"
            }
        ),
        "{e}"
    );
    let mut rec2 = other.recorder();
    let e = rec2
        .scan_into(&y, &Scan::new(ScanOp::Add), &out)
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::WrongContext {
                what: "the output array"
            }
        ),
        "{e}"
    );
    // Nothing invalid was recorded: the recorder still submits.
    rec.submit().unwrap().wait().unwrap();
}

/// Names parse into operations and element types; an unknown name is a typed error that lists
/// what is allowed.
#[test]
fn unknown_names_are_typed_errors() {
    use wgpu_reduce::ScanOp;
    for op in ReduceOp::ALL {
        assert_eq!(op.name().parse::<ReduceOp>().unwrap(), op);
    }
    for op in ScanOp::ALL {
        assert_eq!(op.name().parse::<ScanOp>().unwrap(), op);
    }
    for d in DType::ALL {
        assert_eq!(d.name().parse::<DType>().unwrap(), d);
    }
    let e = "total".parse::<ReduceOp>().unwrap_err();
    assert!(matches!(&e, Error::UnknownName { what: "operation", name, .. } if name == "total"));
    assert!(
        e.to_string()
            .contains("sum, prod, min, max, mean, var, std, argmin, argmax"),
        "{e}"
    );
    assert_eq!("cumsum".parse::<ScanOp>().unwrap(), ScanOp::Add);
    let e = "prefix".parse::<ScanOp>().unwrap_err();
    assert!(e.to_string().contains("add, min, max"), "{e}");
    use wgpu_reduce::ScanAlgorithm;
    assert_eq!(
        "rts".parse::<ScanAlgorithm>().unwrap(),
        ScanAlgorithm::ReduceThenScan
    );
    assert_eq!(
        "lookback".parse::<ScanAlgorithm>().unwrap(),
        ScanAlgorithm::DecoupledFallback
    );
    assert_eq!(
        "auto".parse::<ScanAlgorithm>().unwrap(),
        ScanAlgorithm::Auto
    );
    let e = "fast".parse::<ScanAlgorithm>().unwrap_err();
    assert!(
        e.to_string().contains("unknown scan algorithm \"fast\""),
        "{e}"
    );
    let e = "f64".parse::<DType>().unwrap_err();
    assert!(matches!(
        &e,
        Error::UnknownName {
            what: "element type",
            ..
        }
    ));
    assert!(e.to_string().contains("f32, i32, u32, f16, bf16"), "{e}");
}

/// The blocking reductions along axes return what the recorder's do, and refuse bad axes with
/// the same typed errors.
#[test]
fn blocking_axis_one_liners() {
    let ctx = common::ctx();
    let mut rng = common::rng("blocking_axis_one_liners");
    let data = common::random_f32(&mut rng, 4 * 5 * 6);
    let x = ctx.upload_shaped(&data, &[4, 5, 6]).unwrap();
    let via_recorder = |red: Reduction| -> Vec<f32> {
        let mut rec = ctx.recorder();
        let out = rec.reduce::<f32, f32>(&x, &red).unwrap();
        let t = rec.read(&out).unwrap();
        rec.submit().unwrap().wait().unwrap().get(&t).unwrap()
    };
    let r = |op| Reduction::new(op);
    // Exact equality: the same kernels on the same data give the same bits.
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, [0, 2], false)).unwrap(),
        via_recorder(r(ReduceOp::Sum).axes([0, 2]))
    );
    assert_eq!(
        ctx.run(|rec| rec.prod(&x, 1, false)).unwrap(),
        via_recorder(r(ReduceOp::Prod).axes(1))
    );
    assert_eq!(
        ctx.run(|rec| rec.min(&x, -1, false)).unwrap(),
        via_recorder(r(ReduceOp::Min).axes(-1))
    );
    assert_eq!(
        ctx.run(|rec| rec.max(&x, 0, false)).unwrap(),
        via_recorder(r(ReduceOp::Max).axes(0))
    );
    assert_eq!(
        ctx.run(|rec| rec.mean(&x, 2, false)).unwrap(),
        via_recorder(r(ReduceOp::Mean).axes(2))
    );
    let var = r(ReduceOp::Var).axes(1).correction(0);
    assert_eq!(
        ctx.run(|rec| rec.var(&x, 0, 1, false)).unwrap(),
        via_recorder(var)
    );
    let std = r(ReduceOp::Std).axes([0, 1]).correction(2);
    assert_eq!(
        ctx.run(|rec| rec.std(&x, 2, [0, 1], false)).unwrap(),
        via_recorder(std)
    );
    // The sum against the f64 reference: 20 outputs of 6 values each.
    let sums = ctx.run(|rec| rec.sum(&x, -1, false)).unwrap();
    assert_eq!(sums.len(), 20);
    for (o, got) in sums.iter().enumerate() {
        let want: f64 = data[o * 6..o * 6 + 6].iter().map(|&v| f64::from(v)).sum();
        assert!(
            (f64::from(*got) - want).abs() <= 1e-5,
            "row {o}: {got} vs {want}"
        );
    }
    // argmin/argmax along one axis: indices along it, checked on the host.
    let idx = ctx.run(|rec| rec.argmax(&x, 2, false)).unwrap();
    let lo = ctx.run(|rec| rec.argmin(&x, 2, false)).unwrap();
    for o in 0..20 {
        let row = &data[o * 6..o * 6 + 6];
        let (imax, imin) = (0..6).fold((0, 0), |(a, b), i| {
            (
                if row[i] > row[a] { i } else { a },
                if row[i] < row[b] { i } else { b },
            )
        });
        assert_eq!((idx[o] as usize, lo[o] as usize), (imax, imin), "row {o}");
    }
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, 3, false)).unwrap_err(),
        Error::AxisOutOfRange { axis: 3, ndim: 3 }
    );
    assert!(matches!(
        ctx.run(|rec| rec.argmax(&x, -4, false)),
        Err(Error::AxisOutOfRange { axis: -4, ndim: 3 })
    ));
}

/// Ranges of a caller's buffer that cannot be bound are typed errors that say the rule.
#[test]
fn buffer_ranges_that_cannot_be_bound() {
    let ctx = common::ctx();
    let align = u64::from(
        ctx.capabilities()
            .limits
            .min_storage_buffer_offset_alignment,
    );
    let buffer = ctx
        .device()
        .create_buffer(&wgpu_reduce::wgpu::BufferDescriptor {
            label: Some("app buffer"),
            size: 4 * align,
            usage: wgpu_reduce::wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
    let wrap = |range: std::ops::Range<u64>, n: usize| {
        GpuArray::<f32>::from_buffer_range(ctx, buffer.clone(), range, &[n]).unwrap_err()
    };
    let e = wrap(4..4 + 64, 16);
    assert_eq!(
        e,
        Error::Misaligned {
            what: "the range's start",
            value: 4,
            alignment: align,
            rule: "the device's min_storage_buffer_offset_alignment: storage bindings start there",
        }
    );
    assert!(
        e.to_string()
            .contains("min_storage_buffer_offset_alignment"),
        "{e}"
    );
    let e = wrap(align..align + 6, 1);
    assert!(
        matches!(
            e,
            Error::Misaligned {
                what: "the range's length",
                value: 6,
                alignment: 4,
                ..
            }
        ),
        "{e}"
    );
    let e = wrap(align..align, 0);
    assert!(matches!(e, Error::Misaligned { value: 0, .. }), "{e}");
    let e = wrap(align..5 * align, 16);
    assert!(
        matches!(e, Error::InvalidBuffer { .. }) && e.to_string().contains("not within"),
        "{e}"
    );
    let e = wrap(align..align + 64, 17);
    assert!(
        matches!(e, Error::InvalidBuffer { .. }) && e.to_string().contains("needs 68 bytes"),
        "{e}"
    );
    // The whole buffer, aligned: accepted.
    assert!(
        GpuArray::<f32>::from_buffer_range(ctx, buffer.clone(), align..2 * align, &[4]).is_ok()
    );
}

/// wgpu's own error is the `source()` of the library's error.
#[test]
fn wgpu_errors_are_kept_as_the_source() {
    use std::error::Error as _;
    let ctx = common::ctx();
    let buffer = ctx
        .device()
        .create_buffer(&wgpu_reduce::wgpu::BufferDescriptor {
            label: Some("destroyed"),
            size: 64,
            usage: wgpu_reduce::wgpu::BufferUsages::STORAGE
                | wgpu_reduce::wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
    let x = GpuArray::<f32>::from_buffer(ctx, buffer.clone(), &[16]).unwrap();
    buffer.destroy();
    let e = ctx.run(|rec| rec.sum(&x, .., false)).unwrap_err();
    assert!(matches!(e, Error::Validation { .. }), "{e}");
    let source = e.source().expect("a source");
    let wgpu_error = source
        .downcast_ref::<wgpu_reduce::WgpuError>()
        .expect("a WgpuError")
        .get()
        .downcast_ref::<wgpu_reduce::wgpu::Error>();
    assert!(
        matches!(
            wgpu_error,
            Some(wgpu_reduce::wgpu::Error::Validation { .. })
        ),
        "{source:?}"
    );
}
