//! Running out of device memory: arrays are made until the device has no room for another, which
//! must be an `Error::OutOfMemory` (not an abort), after which the context still works.
//!
//! Ignored by default: on lavapipe "device memory" is this machine's RAM, so the test would
//! exhaust the CI machine. Run it on a real GPU: `cargo test --release --test oom -- --ignored`.

use wgpu_reduce::{Context, Error};

#[test]
#[ignore = "allocates until the device runs out of memory; run on a real GPU with --ignored"]
fn running_out_of_device_memory_is_an_error() {
    let ctx = Context::new().unwrap();
    let caps = ctx.capabilities();
    eprintln!(
        "adapter {:?} ({:?})",
        caps.adapter.name, caps.adapter.backend
    );
    // Arrays of up to 8 GiB (2^31 f32, within what a kernel can index).
    let bytes = caps.limits.max_buffer_size.min(8 << 30) / 4 * 4;
    let mut held = Vec::new();
    let e = loop {
        match ctx.zeros::<f32>(&[(bytes / 4) as usize]) {
            Ok(a) => held.push(a),
            Err(e) => break e,
        }
        assert!(
            held.len() < 4096,
            "{} arrays of {bytes} bytes and no error",
            held.len()
        );
    };
    eprintln!(
        "after {} arrays of {bytes} bytes ({} GiB): {e}",
        held.len(),
        (held.len() as u64 * bytes) >> 30
    );
    assert!(matches!(e, Error::OutOfMemory { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("ran out of memory while allocating an array"),
        "{e}"
    );
    drop(held);
    let x = ctx.upload(&vec![0.25f32; 1 << 20]).unwrap();
    assert_eq!(
        ctx.run(|rec| rec.sum(&x, .., false)).map(|v| v[0]).unwrap(),
        262_144.0
    );
}
