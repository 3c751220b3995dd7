//! What the benchmark and diagnostic harnesses (`src/bin/`) share with the examples: the
//! measuring code, the command-line helpers and the f64 reference of the tests.

#[path = "../../examples/support/args.rs"]
pub mod args;
#[path = "../../examples/support/bench.rs"]
pub mod bench;
#[path = "../../tests/common/reference.rs"]
#[allow(dead_code, clippy::len_without_is_empty)]
pub mod reference;
#[path = "../../tests/common/scan_ref.rs"]
#[allow(dead_code)]
pub mod scan_ref;
#[path = "../../examples/support/mod.rs"]
pub mod support;

/// A compute pipeline of the WGSL `source`'s `main`, its layout taken from the shader.
pub fn wgsl_pipeline(device: &wgpu::Device, label: &str, source: &str) -> wgpu::ComputePipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    })
}
