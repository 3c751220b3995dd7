//! Inside an application that owns its wgpu device: the app makes its own instance, adapter
//! and device (asking for the features and limits the library's fast paths use), wraps a range
//! of its own buffer (no copy) and records the reductions into its own command encoder, next to
//! its other work.
//!
//!     cargo run --example 05_app_encoder

use wgpu::util::DeviceExt;
use wgpu_reduce::{wgpu, Context, ContextOptions, DeviceRequirements, GpuArray};

fn main() -> wgpu_reduce::Result<()> {
    // The application's own wgpu setup (WGPU_BACKEND etc. honoured, as the library's are).
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        ..Default::default()
    }))
    .expect("no GPU adapter");
    // What the library's fast paths use (subgroups, f16, timestamps, the largest bindings),
    // added to what the app needs itself (nothing more here).
    let options = ContextOptions::default();
    let wanted = DeviceRequirements::for_adapter(&adapter, &options);
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("the app's device"),
        required_features: wanted.features,
        required_limits: wanted.limits,
        ..Default::default()
    }))
    .expect("no device");
    let lib = Context::from_wgpu(device.clone(), queue.clone(), options)?;

    // The application's buffer: a 256-byte header of its own, then 1024 f32 values.
    let header = 256u64;
    let values: Vec<f32> = (1..=1024).map(|i| i as f32).collect();
    let mut contents = vec![0u8; header as usize];
    contents.extend_from_slice(bytemuck::cast_slice(&values));
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("app data"),
        contents: &contents,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    // The values' range of that buffer (its start a multiple of the device's storage offset
    // alignment: a misaligned range is Error::Misaligned).
    let x = GpuArray::<f32>::from_buffer_range(&lib, buffer, header..header + 4096, &[32, 32])?;

    // Record into the application's encoder, alongside whatever else it encodes.
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut rec = lib.recorder();
    let top = rec.max(&x, .., false)?; // results stay on the GPU
    let rows = rec.sum(&x, -1, false)?;
    rec.record_into(&mut encoder)?;
    queue.submit([encoder.finish()]);

    println!("max = {:?}", lib.read(&top)?); // [1024.0]
    println!("first row sums = {:?}", &lib.read(&rows)?[..3]); // [528.0, 1552.0, 2576.0]
    Ok(())
}
