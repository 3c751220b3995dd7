//! Shader variants: the one place where kernels are specialised, and the pipeline cache.
//!
//! A kernel is WGSL from `shaders/` with a generated *prelude* in front of it. The prelude fixes
//! the element type `T`, the accumulator type `A`, the workgroup size `WG`, and the functions
//! `identity`, `load`, `load4`, `combine`, `combine4`, `finalize` (and `subgroup_combine` for
//! subgroup variants). A variant is the tuple ([`ReduceVariant`]): input type × operation ×
//! workgroup size × subgroups-or-not. [`ReduceVariant::all`] lists every variant the library can
//! build; a test runs each through naga (parse, validate, MSL, SPIR-V and HLSL output).
//!
//! Pipelines are compiled on first use and cached per variant (one cache per context).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::context::WORKGROUP_SIZES;
use crate::element::DType;
use crate::ops::ReduceOp;

/// WGSL of the per-thread part of a reduction.
pub const REDUCE_WGSL: &str = include_str!("../shaders/reduce.wgsl");
/// WGSL of the shared-memory tree workgroup step.
pub const REDUCE_TREE_WGSL: &str = include_str!("../shaders/reduce_tree.wgsl");
/// WGSL of the subgroup workgroup step.
pub const REDUCE_SUBGROUP_WGSL: &str = include_str!("../shaders/reduce_subgroup.wgsl");

/// Size of the `Params` uniform in `shaders/reduce.wgsl`.
pub(crate) const PARAMS_BYTES: u64 = 32;

/// One specialisation of the reduction kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReduceVariant {
    /// Element type read from memory.
    pub input: DType,
    /// The reduction.
    pub op: ReduceOp,
    /// Workgroup size, one of [`WORKGROUP_SIZES`].
    pub workgroup_size: u32,
    /// Use subgroup operations for the workgroup step.
    pub subgroups: bool,
}

impl ReduceVariant {
    /// Every variant the library can build.
    pub fn all() -> Vec<ReduceVariant> {
        let mut v = Vec::new();
        for input in DType::ALL {
            for op in ReduceOp::ALL {
                for workgroup_size in WORKGROUP_SIZES {
                    for subgroups in [false, true] {
                        v.push(ReduceVariant {
                            input,
                            op,
                            workgroup_size,
                            subgroups,
                        });
                    }
                }
            }
        }
        v
    }

    /// The accumulator type: f32 for mean, else the input type. (Integer sums and products
    /// wrap modulo 2^32; see the crate documentation.)
    pub fn accumulator(&self) -> DType {
        self.op.accumulator(self.input)
    }

    /// A short name, e.g. `reduce_sum_f32_wg256_sg`.
    pub fn label(&self) -> String {
        format!(
            "reduce_{}_{}_wg{}{}",
            self.op.name(),
            self.input,
            self.workgroup_size,
            if self.subgroups { "_sg" } else { "" }
        )
    }

    /// The full WGSL source of this variant.
    pub fn source(&self) -> String {
        let mut s = self.prelude();
        s.push_str(REDUCE_WGSL);
        s.push_str(if self.subgroups {
            REDUCE_SUBGROUP_WGSL
        } else {
            REDUCE_TREE_WGSL
        });
        s
    }

    /// Parses and validates this variant's WGSL with naga, as wgpu does before compiling it.
    /// The error is naga's report, with source context.
    pub fn naga_module(&self) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
        use naga::valid::{
            Capabilities, ShaderStages, SubgroupOperationSet, ValidationFlags, Validator,
        };
        let src = self.source();
        let module = naga::front::wgsl::parse_str(&src).map_err(|e| e.emit_to_string(&src))?;
        let caps = if self.subgroups {
            Capabilities::SUBGROUP | Capabilities::SUBGROUP_BARRIER
        } else {
            Capabilities::empty()
        };
        let mut validator = Validator::new(ValidationFlags::all(), caps);
        if self.subgroups {
            validator
                .subgroup_stages(ShaderStages::COMPUTE)
                .subgroup_operations(SubgroupOperationSet::all());
        }
        let info = validator
            .validate(&module)
            .map_err(|e| e.emit_to_string(&src))?;
        Ok((module, info))
    }

    /// The Metal Shading Language (MSL 2.4) that naga makes of this variant: what wgpu hands
    /// to Metal on macOS.
    pub fn to_msl(&self) -> Result<String, String> {
        use naga::back::msl;
        let (module, info) = self.naga_module()?;
        let options = msl::Options {
            lang_version: (2, 4),
            fake_missing_bindings: true,
            ..Default::default()
        };
        let pipeline = msl::PipelineOptions {
            entry_point: Some((naga::ShaderStage::Compute, "main".into())),
            ..Default::default()
        };
        msl::write_string(&module, &info, &options, &pipeline)
            .map(|(text, _)| text)
            .map_err(|e| format!("MSL translation of {}: {e:?}", self.label()))
    }

    fn prelude(&self) -> String {
        let t = self.input.wgsl();
        let acc = self.accumulator();
        let a = acc.wgsl();
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels.rs).\n\
             alias T = {t};\nalias A = {a};\nconst WG: u32 = {wg}u;\n\
             fn load(x: T) -> A {{ return A(x); }}\n\
             fn load4(x: vec4<T>) -> vec4<A> {{ return vec4<A>(x); }}\n\
             fn identity() -> A {{ return {id}; }}\n",
            label = self.label(),
            wg = self.workgroup_size,
            id = identity_expr(self.op, acc),
        );
        let float = acc.is_float();
        let (combine, combine4, subgroup) = match self.op {
            ReduceOp::Sum | ReduceOp::Mean => (
                "a + b".to_string(),
                "a + b".to_string(),
                "subgroupAdd(a)".to_string(),
            ),
            ReduceOp::Prod => (
                "a * b".to_string(),
                "a * b".to_string(),
                "subgroupMul(a)".to_string(),
            ),
            ReduceOp::Min | ReduceOp::Max => {
                let f = if self.op == ReduceOp::Min {
                    "min"
                } else {
                    "max"
                };
                let sg = if self.op == ReduceOp::Min {
                    "subgroupMin"
                } else {
                    "subgroupMax"
                };
                if float {
                    // NaN propagates: WGSL's min/max may drop a NaN operand, so test bits (a bit
                    // test also survives fast-math compilation, unlike `x != x`).
                    p.push_str(
                        "fn is_nan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }\n\
                         fn is_nan4(x: vec4<f32>) -> vec4<bool> { return (bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u); }\n",
                    );
                    (
                        format!("select(select({f}(a, b), b, is_nan(b)), a, is_nan(a))"),
                        format!("select(select({f}(a, b), b, is_nan4(b)), a, is_nan4(a))"),
                        format!(
                            "select({sg}(a), bitcast<f32>(0x7fc00000u), subgroupAny(is_nan(a)))"
                        ),
                    )
                } else {
                    (
                        format!("{f}(a, b)"),
                        format!("{f}(a, b)"),
                        format!("{sg}(a)"),
                    )
                }
            }
        };
        p.push_str(&format!(
            "fn combine(a: A, b: A) -> A {{ return {combine}; }}\n\
             fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A> {{ return {combine4}; }}\n"
        ));
        if self.op == ReduceOp::Mean {
            p.push_str(
                "fn finalize(a: A) -> A { if (params.flags & 1u) != 0u { return a / params.divisor; } return a; }\n",
            );
        } else {
            p.push_str("fn finalize(a: A) -> A { return a; }\n");
        }
        if self.subgroups {
            p.push_str(&format!(
                "fn subgroup_combine(a: A) -> A {{ return {subgroup}; }}\n"
            ));
        }
        p.push('\n');
        p
    }
}

/// WGSL expression for the identity of `op` over accumulator type `acc`.
fn identity_expr(op: ReduceOp, acc: DType) -> &'static str {
    match (op, acc) {
        (ReduceOp::Sum | ReduceOp::Mean, DType::F32) => "0.0",
        (ReduceOp::Sum | ReduceOp::Mean, DType::I32) => "0i",
        (ReduceOp::Sum | ReduceOp::Mean, DType::U32) => "0u",
        (ReduceOp::Prod, DType::F32) => "1.0",
        (ReduceOp::Prod, DType::I32) => "1i",
        (ReduceOp::Prod, DType::U32) => "1u",
        (ReduceOp::Min, DType::F32) => "bitcast<f32>(0x7f800000u)",
        (ReduceOp::Min, DType::I32) => "2147483647i",
        (ReduceOp::Min, DType::U32) => "0xffffffffu",
        (ReduceOp::Max, DType::F32) => "bitcast<f32>(0xff800000u)",
        (ReduceOp::Max, DType::I32) => "(-2147483647i - 1i)",
        (ReduceOp::Max, DType::U32) => "0u",
    }
}

/// Bind group layout shared by every reduction variant, and the pipeline cache.
pub(crate) struct Kernels {
    pub layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    cache: Mutex<HashMap<ReduceVariant, wgpu::ComputePipeline>>,
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
    pub(crate) fn new(device: &wgpu::Device) -> Kernels {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("wgpu-reduce reduce"),
            entries: &[
                storage_entry(0, true),
                storage_entry(1, true),
                storage_entry(2, false),
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
            label: Some("wgpu-reduce reduce"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        Kernels {
            layout,
            pipeline_layout,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The cached pipeline of `variant`, if it was compiled before.
    pub(crate) fn cached(&self, variant: ReduceVariant) -> Option<wgpu::ComputePipeline> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.get(&variant).cloned()
    }

    /// Compiles `variant` (not cached: call inside an error scope and [`insert`](Self::insert)
    /// only what compiled without error, so a rejected shader is never reused).
    pub(crate) fn compile(
        &self,
        device: &wgpu::Device,
        variant: ReduceVariant,
    ) -> wgpu::ComputePipeline {
        let label = variant.label();
        log::debug!("wgpu-reduce: compiling {label}");
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&label),
            source: wgpu::ShaderSource::Wgsl(variant.source().into()),
        });
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&label),
            layout: Some(&self.pipeline_layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        })
    }

    pub(crate) fn insert(&self, variant: ReduceVariant, pipeline: wgpu::ComputePipeline) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(variant, pipeline);
    }
}
