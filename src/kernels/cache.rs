//! The bind group layout every kernel shares, and the pipeline cache (one per context).

use std::collections::HashMap;
use std::sync::Mutex;

use super::params::PARAMS_BYTES;
use super::{F16Widening, Kernel};

/// Bind group layout shared by every kernel, and the pipeline cache.
pub(crate) struct Kernels {
    pub layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    /// The f16 widening compiled into every kernel on this device.
    pub widening: F16Widening,
    /// The device is a browser's WebGPU: kernels are compiled from
    /// [`Kernel::browser_source`].
    browser: bool,
    cache: Mutex<HashMap<Kernel, wgpu::ComputePipeline>>,
    /// The driver's pipeline cache, where the device has one (`Features::PIPELINE_CACHE`) and
    /// the application asked for it.
    pub pipeline_cache: Option<wgpu::PipelineCache>,
}

fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Kernels {
    pub(crate) fn new(
        device: &wgpu::Device,
        backend: wgpu::Backend,
        pipeline_cache: Option<wgpu::PipelineCache>,
    ) -> Kernels {
        let widening = F16Widening::for_backend(backend);
        let browser = backend == wgpu::Backend::BrowserWebGpu;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("wgpu-reduce"),
            entries: &[
                storage_entry(0, true),
                storage_entry(1, true),
                storage_entry(2, false),
                storage_entry(4, false),
                storage_entry(5, true),
                wgpu::BindGroupLayoutEntry {
                    binding: 3,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: wgpu::BufferSize::new(PARAMS_BYTES),
                    },
                    count: None,
                },
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("wgpu-reduce"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        Kernels {
            layout,
            pipeline_layout,
            widening,
            browser,
            cache: Mutex::new(HashMap::new()),
            pipeline_cache,
        }
    }

    /// The cached pipeline of `kernel`, if it was compiled before.
    pub(crate) fn cached(&self, kernel: Kernel) -> Option<wgpu::ComputePipeline> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.get(&kernel).cloned()
    }

    /// Compiles `kernel` (not cached: call inside an error scope and [`insert`](Self::insert)
    /// only what compiled without error, so a rejected shader is never reused).
    pub(crate) fn compile(&self, device: &wgpu::Device, kernel: Kernel) -> wgpu::ComputePipeline {
        let label = kernel.label();
        log::debug!("wgpu-reduce: compiling {label}");
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&label),
            source: wgpu::ShaderSource::Wgsl(if self.browser {
                kernel.browser_source().into()
            } else {
                kernel.source_with(self.widening).into()
            }),
        });
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&label),
            layout: Some(&self.pipeline_layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: self.pipeline_cache.as_ref(),
        })
    }

    pub(crate) fn insert(&self, kernel: Kernel, pipeline: wgpu::ComputePipeline) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(kernel, pipeline);
    }
}
