//! Inside an application that owns its wgpu device: wrap its buffers (no copy) and record the
//! reduction into its own command encoder, next to its other work.
//!
//!     cargo run --example 05_app_encoder

use wgpu::util::DeviceExt;
use wgpu_reduce::{wgpu, ContextOptions, GpuArray, ReduceOp};

fn main() -> wgpu_reduce::Result<()> {
    // The application's device (made here by the library for brevity; any wgpu device works).
    let (device, queue) = {
        let ctx = wgpu_reduce::Context::new()?;
        (ctx.device().clone(), ctx.queue().clone())
    };
    let app =
        wgpu_reduce::Context::from_wgpu(device.clone(), queue.clone(), ContextOptions::default())?;

    // The application's buffer, with STORAGE usage (COPY_SRC to read it back later).
    let values: Vec<f32> = (1..=1024).map(|i| i as f32).collect();
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("app data"),
        contents: bytemuck::cast_slice(&values),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let x = GpuArray::<f32>::from_buffer(&app, buffer, &[1024])?;
    let out = app.zeros::<f32>(&[])?; // where the result goes

    // Record into the application's encoder, alongside whatever else it encodes.
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut rec = app.recorder();
    rec.reduce_into(ReduceOp::Max, &x, &out)?;
    rec.record_into(&mut encoder)?;
    queue.submit([encoder.finish()]);

    println!("max = {:?}", app.read(&out)?); // [1024.0]
    Ok(())
}
