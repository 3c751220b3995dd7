//! Shader variants: the one place where kernels are specialised, and the pipeline cache.
//!
//! A kernel is WGSL from `shaders/` with a generated *prelude* in front of it. There are three
//! families ([`Kernel`]):
//!
//! - [`ReduceVariant`]: the whole-array kernel (`shaders/reduce.wgsl` plus a workgroup step,
//!   `reduce_tree.wgsl` or `reduce_subgroup.wgsl`) for sum, prod, min, max and mean: grid-stride
//!   vec4 loads, four accumulators. The prelude fixes the element type `T`, the accumulator `A`,
//!   the workgroup size `WG` and `identity`, `load4`, `load_elem`, `combine`, `combine4`,
//!   `finalize` (and `subgroup_combine`).
//! - [`AxisVariant`]: the general kernel (`shaders/reduce_axis.wgsl`) for an input viewed as
//!   `[outer, r, inner]` reduced over `r`, in two layouts: [`Layout::Rows`] (`inner == 1`,
//!   contiguous rows; several rows per workgroup when rows are short) and [`Layout::Cols`]
//!   (`inner > 1`, threads across columns so reads are coalesced). Every operation, including
//!   argmin/argmax and var/std, is a *state* type `S` with `identity`, `combine` and a `load`
//!   from the input; partial results between passes are states, and the last pass applies
//!   `finalize` (mean's division, var's correction, std's square root, arg's index).
//! - [`PackVariant`]: converts f32 results to f16 or bf16 words (round to nearest even).
//!
//! [`Kernel::all`] lists every variant the library can build; a test runs each through naga
//! (parse, validate, MSL, SPIR-V and HLSL output). Pipelines are compiled on first use and cached
//! per variant (one cache per context).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::context::{SCAN_ROW_WORKGROUP, WORKGROUP_SIZES};
use crate::element::DType;
use crate::ops::{ReduceOp, ScanOp};

/// WGSL of the per-thread part of the whole-array reduction.
pub const REDUCE_WGSL: &str = include_str!("../shaders/reduce.wgsl");
/// WGSL of the shared-memory tree workgroup step.
pub const REDUCE_TREE_WGSL: &str = include_str!("../shaders/reduce_tree.wgsl");
/// WGSL of the subgroup workgroup step.
pub const REDUCE_SUBGROUP_WGSL: &str = include_str!("../shaders/reduce_subgroup.wgsl");
/// WGSL of the general `[outer, r, inner]` reduction (rows and columns layouts).
pub const REDUCE_AXIS_WGSL: &str = include_str!("../shaders/reduce_axis.wgsl");
/// The flat layout's entry (argmin/argmax over a whole f32 array), added to the axis kernel.
pub const REDUCE_FLAT_WGSL: &str = include_str!("../shaders/reduce_flat.wgsl");
/// The column-pairs layout's entry (16-bit columns), added to the axis kernel.
pub const REDUCE_COL_PAIRS_WGSL: &str = include_str!("../shaders/reduce_col_pairs.wgsl");
/// WGSL of the f32 → f16/bf16 packing kernel.
pub const PACK_WGSL: &str = include_str!("../shaders/pack.wgsl");
/// WGSL shared by every scan pass: parameters, tile geometry, the decoupled look-back.
pub const SCAN_WGSL: &str = include_str!("../shaders/scan.wgsl");
/// WGSL of the scan of whole tiles, four vec4 registers per thread.
pub const SCAN_VEC_WGSL: &str = include_str!("../shaders/scan_vec.wgsl");
/// WGSL of `SCAN_VEC_WGSL`'s shared-memory group step.
pub const SCAN_VEC_TREE_WGSL: &str = include_str!("../shaders/scan_vec_tree.wgsl");
/// WGSL of `SCAN_VEC_WGSL`'s subgroup group step.
pub const SCAN_VEC_SUBGROUP_WGSL: &str = include_str!("../shaders/scan_vec_subgroup.wgsl");
/// WGSL of the fill kernel (clears look-back status).
pub const FILL_WGSL: &str = include_str!("../shaders/fill.wgsl");
/// WGSL helpers shared by every kernel (NaN test, 16-bit loads and conversions).
pub const COMMON_WGSL: &str = include_str!("../shaders/common.wgsl");
/// f16 widening with `unpack2x16float` (see [`F16Widening::Native`]).
pub const F16_NATIVE_WGSL: &str = include_str!("../shaders/f16_native.wgsl");
/// f16 widening in integer arithmetic (see [`F16Widening::Integer`]).
pub const F16_INTEGER_WGSL: &str = include_str!("../shaders/f16_integer.wgsl");

/// How kernels widen f16 elements to f32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum F16Widening {
    /// WGSL's `unpack2x16float`, a hardware conversion. It needs wgpu's downlevel capability
    /// `SHADER_F16_IN_F32`, which Vulkan, Metal, DX12 and WebGPU always have; the library uses
    /// it on every backend but GL.
    Native,
    /// Integer arithmetic (about 20 operations an element), for GL devices, where that
    /// capability may be missing.
    Integer,
}

impl F16Widening {
    /// The widening the library uses on `backend`.
    pub fn for_backend(backend: wgpu::Backend) -> F16Widening {
        if backend == wgpu::Backend::Gl {
            F16Widening::Integer
        } else {
            F16Widening::Native
        }
    }

    fn wgsl(self) -> &'static str {
        match self {
            F16Widening::Native => F16_NATIVE_WGSL,
            F16Widening::Integer => F16_INTEGER_WGSL,
        }
    }
}

/// Size of the parameter uniform every kernel reads (16 words).
pub(crate) const PARAMS_BYTES: u64 = 64;

/// Any kernel the library can build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Whole-array fast path.
    Reduce(ReduceVariant),
    /// General `[outer, r, inner]` reduction.
    Axis(AxisVariant),
    /// f32 → 16-bit conversion.
    Pack(PackVariant),
    /// A pass of a prefix scan.
    Scan(ScanVariant),
    /// Sets u32 words to a value.
    Fill,
}

impl Kernel {
    /// Every kernel variant the library can build.
    pub fn all() -> Vec<Kernel> {
        let mut v: Vec<Kernel> = ReduceVariant::all()
            .into_iter()
            .map(Kernel::Reduce)
            .collect();
        v.extend(AxisVariant::all().into_iter().map(Kernel::Axis));
        v.extend(PackVariant::all().into_iter().map(Kernel::Pack));
        v.extend(ScanVariant::all().into_iter().map(Kernel::Scan));
        v.push(Kernel::Fill);
        v
    }

    /// A short unique name, e.g. `reduce_sum_f32_wg256_sg`.
    pub fn label(&self) -> String {
        match self {
            Kernel::Reduce(k) => k.label(),
            Kernel::Axis(k) => k.label(),
            Kernel::Pack(k) => k.label(),
            Kernel::Scan(k) => k.label(),
            Kernel::Fill => "fill_u32".into(),
        }
    }

    /// The full WGSL source, as compiled on Vulkan, Metal, DX12 and WebGPU
    /// ([`F16Widening::Native`]).
    pub fn source(&self) -> String {
        self.source_with(F16Widening::Native)
    }

    /// The full WGSL source with the given f16 widening (its helpers are added at the end:
    /// WGSL module-scope declarations may come in any order).
    pub fn source_with(&self, widening: F16Widening) -> String {
        let mut s = match self {
            Kernel::Reduce(k) => k.source(),
            Kernel::Axis(k) => k.source(),
            Kernel::Pack(k) => k.source(),
            Kernel::Scan(k) => k.source(),
            Kernel::Fill => return FILL_WGSL.to_string(),
        };
        s.push('\n');
        s.push_str(widening.wgsl());
        s
    }

    /// The WGSL a browser's WebGPU compiles: [`source`](Self::source) with, for kernels that
    /// use subgroup operations, the `enable subgroups;` directive WGSL requires before them
    /// (browsers reject those kernels without it; naga 30 rejects the directive itself, so the
    /// native source leaves it out).
    pub fn browser_source(&self) -> String {
        let s = self.source();
        if self.uses_subgroups() {
            format!("enable subgroups;\n{s}")
        } else {
            s
        }
    }

    /// Whether the kernel uses subgroup operations.
    pub fn uses_subgroups(&self) -> bool {
        match self {
            Kernel::Reduce(k) => k.subgroups,
            Kernel::Scan(k) => k.subgroups,
            _ => false,
        }
    }

    /// Parses and validates the WGSL with naga, as wgpu does before compiling it. The error is
    /// naga's report, with source context.
    pub fn naga_module(&self) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
        self.naga_module_with(F16Widening::Native)
    }

    /// [`naga_module`](Self::naga_module) of the source with the given f16 widening, validated
    /// with only the capabilities that widening needs (none for [`F16Widening::Integer`]).
    pub fn naga_module_with(
        &self,
        widening: F16Widening,
    ) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
        use naga::valid::{
            Capabilities, ShaderStages, SubgroupOperationSet, ValidationFlags, Validator,
        };
        let src = self.source_with(widening);
        let module = naga::front::wgsl::parse_str(&src).map_err(|e| e.emit_to_string(&src))?;
        let sg = self.uses_subgroups();
        let mut caps = if sg {
            Capabilities::SUBGROUP | Capabilities::SUBGROUP_BARRIER
        } else {
            Capabilities::empty()
        };
        if widening == F16Widening::Native {
            caps |= Capabilities::SHADER_FLOAT16_IN_FLOAT32;
        }
        let mut validator = Validator::new(ValidationFlags::all(), caps);
        if sg {
            validator
                .subgroup_stages(ShaderStages::COMPUTE)
                .subgroup_operations(SubgroupOperationSet::all());
        }
        let info = validator
            .validate(&module)
            .map_err(|e| e.emit_to_string(&src))?;
        Ok((module, info))
    }

    /// The Metal Shading Language (MSL 2.4) that naga makes of this kernel: what wgpu hands to
    /// Metal on macOS.
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
}

/// One specialisation of the whole-array kernel (sum, prod, min, max, mean).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReduceVariant {
    /// Element type read from memory.
    pub input: DType,
    /// The reduction; one of sum, prod, min, max, mean.
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
            for op in ReduceOp::ALL.into_iter().filter(|op| op.is_simple()) {
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

    /// The accumulator type (f32 for mean and for 16-bit floats, else the input type).
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
        s.push_str(COMMON_WGSL);
        s.push_str(REDUCE_WGSL);
        s.push_str(if self.subgroups {
            REDUCE_SUBGROUP_WGSL
        } else {
            REDUCE_TREE_WGSL
        });
        s
    }

    fn prelude(&self) -> String {
        let t = self.input.wgsl();
        let acc = self.accumulator();
        let a = acc.wgsl();
        let (load4, load_elem, epv) = match self.input {
            DType::F16 => (
                "return combine4(f16_lo4(x), f16_hi4(x));",
                "return f16_at(src[t >> 1u], t);",
                8,
            ),
            DType::BF16 => (
                "return combine4(bf16_lo4(x), bf16_hi4(x));",
                "return bf16_at(src[t >> 1u], t);",
                8,
            ),
            _ => ("return vec4<A>(x);", "return A(src[t]);", 4),
        };
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels.rs).\n\
             alias T = {t};\nalias A = {a};\nconst WG: u32 = {wg}u;\n\
             // Elements per vec4 word of the input.\nconst EPV: u32 = {epv}u;\n\
             fn load4(x: vec4<T>) -> vec4<A> {{ {load4} }}\n\
             fn load_elem(t: u32) -> A {{ {load_elem} }}\n\
             fn identity() -> A {{ return {id}; }}\n",
            label = self.label(),
            wg = self.workgroup_size,
            id = identity_expr(self.op, acc),
        );
        let (combine, combine4, subgroup) = scalar_combine(self.op, acc);
        p.push_str(&format!(
            "fn combine(a: A, b: A) -> A {{ return {combine}; }}\n\
             fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A> {{ return {combine4}; }}\n"
        ));
        p.push_str(&thread_state(self.op, self.input));
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

/// WGSL of a thread's running state `S` in the whole-array kernel (see shaders/reduce.wgsl).
///
/// Most operations keep `vec4<A>` and `combine4`. f32 min/max keep order-preserving signed
/// integer keys instead (`i ^ ((i >> 31) & 0x7fffffff)`, its own inverse: three integer
/// operations and a max per element) plus the largest magnitude bits seen, which exceed
/// +inf's exactly when a NaN was read: a third of the work of comparing exact float keys
/// element by element, which made these passes ALU-bound on the H200. Keys order -0.0 below
/// +0.0, so a thread's min/max of zeros may be either zero (both are exact answers).
fn thread_state(op: ReduceOp, input: DType) -> String {
    let keyed = input == DType::F32 && matches!(op, ReduceOp::Min | ReduceOp::Max);
    if !keyed {
        return "alias S = vec4<A>;\n\
                fn s_identity() -> S { return vec4<A>(identity()); }\n\
                fn s_add(s: S, x: vec4<T>) -> S { return combine4(s, load4(x)); }\n\
                fn s_merge(a: S, b: S) -> S { return combine4(a, b); }\n\
                fn s_finish(v: S) -> A { return combine(combine(v.x, v.y), combine(v.z, v.w)); }\n"
            .into();
    }
    // Identity: the key of +inf (min) or -inf (max).
    let (f, id) = if op == ReduceOp::Min {
        ("min", "0x7f800000i")
    } else {
        ("max", "(-2139095041i)")
    };
    format!(
        "struct S {{ k: vec4<i32>, m: vec4<u32> }}\n\
         fn okey4(x: vec4<f32>) -> vec4<i32> {{ let i = bitcast<vec4<i32>>(x); \
         return i ^ ((i >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff)); }}\n\
         fn s_identity() -> S {{ return S(vec4<i32>({id}), vec4<u32>(0u)); }}\n\
         fn s_add(s: S, x: vec4<T>) -> S {{ \
         return S({f}(s.k, okey4(x)), max(s.m, bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu))); }}\n\
         fn s_merge(a: S, b: S) -> S {{ return S({f}(a.k, b.k), max(a.m, b.m)); }}\n\
         fn s_finish(s: S) -> A {{ \
         let k = {f}({f}(s.k.x, s.k.y), {f}(s.k.z, s.k.w)); \
         let m = max(max(s.m.x, s.m.y), max(s.m.z, s.m.w)); \
         return select(bitcast<f32>(k ^ ((k >> 31u) & 0x7fffffff)), quiet_nan(), m > 0x7f800000u); }}\n"
    )
}

/// WGSL bodies of `combine(a, b)`, `combine4(a, b)` and `subgroup_combine(a)` for a scalar
/// operation (sum, prod, min, max, mean) over accumulator type `acc`.
fn scalar_combine(op: ReduceOp, acc: DType) -> (String, String, String) {
    match op {
        ReduceOp::Prod => ("a * b".into(), "a * b".into(), "subgroupMul(a)".into()),
        ReduceOp::Min | ReduceOp::Max => {
            let (f, sg) = if op == ReduceOp::Min {
                ("min", "subgroupMin")
            } else {
                ("max", "subgroupMax")
            };
            let f = if acc.is_float() {
                format!("f{f}")
            } else {
                f.to_string()
            };
            if acc.is_float() {
                // NaN propagates: WGSL's min/max may drop a NaN operand, so test bits (a bit
                // test also survives fast-math compilation, unlike `x != x`). A subgroup
                // min/max may drop NaNs too, hence the subgroupAny. Values are compared as
                // order-preserving integer keys, so subnormals are never flushed to zero.
                (
                    format!("select(select({f}_exact(a, b), b, is_nan(b)), a, is_nan(a))"),
                    format!("select(select({f}4_exact(a, b), b, is_nan4(b)), a, is_nan4(a))"),
                    format!(
                        "select(from_fkey({sg}(fkey(a))), quiet_nan(), subgroupAny(is_nan(a)))"
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
        _ => ("a + b".into(), "a + b".into(), "subgroupAdd(a)".into()),
    }
}

/// WGSL expression for the identity of a scalar `op` over accumulator type `acc`.
fn identity_expr(op: ReduceOp, acc: DType) -> &'static str {
    match (op, acc.is_float(), acc) {
        (ReduceOp::Prod, true, _) => "1.0",
        (ReduceOp::Prod, _, DType::I32) => "1i",
        (ReduceOp::Prod, _, _) => "1u",
        (ReduceOp::Min | ReduceOp::Argmin, true, _) => "pos_inf()",
        (ReduceOp::Min | ReduceOp::Argmin, _, DType::I32) => "2147483647i",
        (ReduceOp::Min | ReduceOp::Argmin, _, _) => "0xffffffffu",
        (ReduceOp::Max | ReduceOp::Argmax, true, _) => "neg_inf()",
        (ReduceOp::Max | ReduceOp::Argmax, _, DType::I32) => "(-2147483647i - 1i)",
        (ReduceOp::Max | ReduceOp::Argmax, _, _) => "0u",
        (_, true, _) => "0.0",
        (_, _, DType::I32) => "0i",
        (_, _, _) => "0u",
    }
}

/// How an [`AxisVariant`] maps threads onto `[outer, r, inner]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layout {
    /// `inner == 1`: each output is a contiguous row of `r` elements; `lanes` threads share a
    /// row (a power of two up to the workgroup size), so short rows pack many to a workgroup.
    Rows,
    /// `inner > 1`: threads of a workgroup cover `lanes` adjacent columns (coalesced reads) and
    /// `WG / lanes` slices of `r`, combined in shared memory.
    Cols,
    /// Short rows, one thread per row: each thread owns four rows `WG` apart (four loads in
    /// flight), no shared memory.
    RowsWide,
    /// Columns where the outputs alone fill the GPU: each thread owns four columns `WG` apart
    /// and reads its whole chunk of the reduced axis, no shared memory.
    ColsWide,
    /// First pass of argmin/argmax over a whole f32 array: workgroups stride over vec4 words
    /// comparing integer keys, one state per workgroup (see shaders/reduce_flat.wgsl).
    Flat,
    /// Columns of 16-bit input (first pass, even `inner`): each thread owns two adjacent
    /// columns, the halves of one u32 word.
    ColPairs,
}

impl Layout {
    /// Every layout.
    pub const ALL: [Layout; 6] = [
        Layout::Rows,
        Layout::Cols,
        Layout::RowsWide,
        Layout::ColsWide,
        Layout::Flat,
        Layout::ColPairs,
    ];

    /// Lower-case name, as used in kernel labels.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Rows => "rows",
            Layout::Cols => "cols",
            Layout::RowsWide => "rowswide",
            Layout::ColsWide => "colswide",
            Layout::Flat => "flat",
            Layout::ColPairs => "colpairs",
        }
    }
}

/// One specialisation of the general `[outer, r, inner]` reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AxisVariant {
    /// Thread mapping.
    pub layout: Layout,
    /// The reduction (any [`ReduceOp`]).
    pub op: ReduceOp,
    /// Element type of the original input (fixes the state type).
    pub input: DType,
    /// The pass reads states of an earlier pass instead of input elements.
    pub src_state: bool,
    /// The pass writes final results (else states for a later pass).
    pub dst_final: bool,
    /// Workgroup size, one of [`WORKGROUP_SIZES`].
    pub workgroup_size: u32,
}

impl AxisVariant {
    /// Every variant the library can build.
    pub fn all() -> Vec<AxisVariant> {
        let mut v = Vec::new();
        for layout in Layout::ALL {
            for op in ReduceOp::ALL {
                for input in DType::ALL {
                    for src_state in [false, true] {
                        for dst_final in [false, true] {
                            for workgroup_size in WORKGROUP_SIZES {
                                let k = AxisVariant {
                                    layout,
                                    op,
                                    input,
                                    src_state,
                                    dst_final,
                                    workgroup_size,
                                };
                                let exists = match layout {
                                    Layout::Flat => k.flat_capable(),
                                    Layout::ColPairs => input.is_half() && !src_state,
                                    _ => true,
                                };
                                if exists {
                                    v.push(k);
                                }
                            }
                        }
                    }
                }
            }
        }
        v
    }

    /// Whether the flat layout exists for this variant: the first pass (raw f32 input,
    /// states out) of argmin/argmax.
    pub fn flat_capable(&self) -> bool {
        matches!(self.op, ReduceOp::Argmin | ReduceOp::Argmax)
            && self.input == DType::F32
            && !self.src_state
            && !self.dst_final
    }

    /// A short name, e.g. `axis_rows_argmax_f16_raw_state_wg256`.
    pub fn label(&self) -> String {
        format!(
            "axis_{}_{}_{}_{}_{}_wg{}",
            self.layout.name(),
            self.op.name(),
            self.input,
            if self.src_state { "state" } else { "raw" },
            if self.dst_final { "final" } else { "state" },
            self.workgroup_size
        )
    }

    /// Bytes of one state value of this variant's operation and input type.
    pub fn state_bytes(&self) -> u64 {
        self.op.state_bytes()
    }

    /// The full WGSL source of this variant.
    pub fn source(&self) -> String {
        let mut s = self.prelude();
        s.push_str(COMMON_WGSL);
        // The axis source ends with the entry's attribute, so a layout's own functions go
        // before it (module-scope declarations may come in any order).
        match self.layout {
            Layout::Flat => s.push_str(REDUCE_FLAT_WGSL),
            Layout::ColPairs => s.push_str(REDUCE_COL_PAIRS_WGSL),
            _ => {}
        }
        s.push_str(REDUCE_AXIS_WGSL);
        let entry = match self.layout {
            Layout::Rows => "reduce_rows",
            Layout::Cols => "reduce_cols",
            Layout::RowsWide => "rows_wide_entry",
            Layout::ColsWide => "cols_wide_entry",
            Layout::Flat => "reduce_flat",
            Layout::ColPairs => "reduce_col_pairs",
        };
        s.push_str(&format!(
            "fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {{ {entry}(lid, wid); }}\n"
        ));
        s
    }

    fn prelude(&self) -> String {
        let op = self.op;
        // V: the value type the operation works in.
        let v = op.accumulator(self.input);
        let vt = v.wgsl();
        let elem = match self.input {
            DType::F16 => "f16_at(src[k >> 1u], k)".to_string(),
            DType::BF16 => "bf16_at(src[k >> 1u], k)".to_string(),
            _ => format!("{vt}(src[k])"),
        };
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels.rs).\n\
             const WG: u32 = {wg}u;\nconst WG_SHIFT: u32 = {shift}u;\nalias V = {vt};\n",
            label = self.label(),
            wg = self.workgroup_size,
            shift = self.workgroup_size.trailing_zeros(),
        );
        let (load_raw, finalize) = match op {
            ReduceOp::Var | ReduceOp::Std => {
                p.push_str(
                    "struct VarState { n: u32, mean: f32, m2: f32 }\nalias S = VarState;\n\
                     fn identity() -> S { return S(0u, 0.0, 0.0); }\n\
                     // Chan et al.'s parallel combination of two (count, mean, M2) states.\n\
                     fn combine(a: S, b: S) -> S {\n\
                     \x20   if a.n == 0u { return b; }\n\
                     \x20   if b.n == 0u { return a; }\n\
                     \x20   let n = a.n + b.n;\n\
                     \x20   let fa = f32(a.n);\n\
                     \x20   let fb = f32(b.n);\n\
                     \x20   let nt = f32(n);\n\
                     \x20   let d = b.mean - a.mean;\n\
                     \x20   return S(n, a.mean + d * (fb / nt), a.m2 + b.m2 + d * d * (fa * (fb / nt)));\n\
                     }\n",
                );
                let sqrt = if op == ReduceOp::Std { "sqrt" } else { "" };
                (
                    format!("return S(1u, {elem}, 0.0);"),
                    // An infinite element makes the mean infinite or NaN; the variance is then
                    // NaN (as two-pass formulas and PyTorch give), not M2's infinity.
                    format!(
                        "let d = max(f32(s.n) - params.correction, 0.0); \
                         let v = select({sqrt}(s.m2 / d), quiet_nan(), \
                         (bitcast<u32>(s.mean) & 0x7f800000u) == 0x7f800000u); return v;"
                    ),
                )
            }
            ReduceOp::Argmin | ReduceOp::Argmax => {
                let better = if op == ReduceOp::Argmin { "<" } else { ">" };
                let nan_rule = if v.is_float() {
                    "    let an = is_nan(a.v);\n    let bn = is_nan(b.v);\n    \
                     if an || bn {\n        if bn && (!an || b.i < a.i) { return b; }\n        return a;\n    }\n"
                } else {
                    ""
                };
                p.push_str(&format!(
                    "struct ArgState {{ v: V, i: u32 }}\nalias S = ArgState;\n\
                     fn identity() -> S {{ return S({id}, 0xffffffffu); }}\n\
                     // The first NaN wins (PyTorch's rule); then the {what} value; ties go to the\n\
                     // lowest index. A total order, so the result does not depend on the order\n\
                     // of combination.\n\
                     fn combine(a: S, b: S) -> S {{\n{nan_rule}\
                     \x20   if {kb} {better} {ka} {{ return b; }}\n\
                     \x20   if {kb} == {ka} && b.i < a.i {{ return b; }}\n\
                     \x20   return a;\n}}\n",
                    id = identity_expr(op, v),
                    what = if op == ReduceOp::Argmin { "smallest" } else { "largest" },
                    // Floats compare as exact integer keys (see fkey in common.wgsl).
                    kb = if v.is_float() { "fkey(b.v)" } else { "b.v" },
                    ka = if v.is_float() { "fkey(a.v)" } else { "a.v" },
                ));
                (format!("return S({elem}, j);"), "return s.i;".to_string())
            }
            _ => {
                let (combine, _, _) = scalar_combine(op, v);
                p.push_str(&format!(
                    "alias S = V;\nfn identity() -> S {{ return {id}; }}\n\
                     fn combine(a: S, b: S) -> S {{ return {combine}; }}\n",
                    id = identity_expr(op, v),
                ));
                let fin = if op == ReduceOp::Mean {
                    "return s / params.divisor;"
                } else {
                    "return s;"
                };
                (format!("return {elem};"), fin.to_string())
            }
        };
        let src = if self.src_state {
            "S".to_string()
        } else {
            self.input.wgsl().to_string()
        };
        let out = op.output(self.input).wgsl();
        let dst = if self.dst_final { out } else { "S" };
        p.push_str(&format!("alias SRC = {src};\nalias DST = {dst};\n"));
        // Indices are relative to the dispatch's window (see src_base, dst_base, j_base).
        if self.src_state {
            p.push_str("fn load(k0: u32, j: u32) -> S { return src[params.src_base + k0]; }\n");
        } else {
            p.push_str(&format!(
                "fn load(k0: u32, j0: u32) -> S {{ let k = params.src_base + k0; \
                 let j = params.j_base + j0; {load_raw} }}\n"
            ));
        }
        if self.layout == Layout::ColPairs {
            // Both halves of the word at even element k (the planner keeps k even), from one
            // load: two loads of k and k + 1 would cost two load instructions per word.
            let half = if self.input == DType::F16 {
                "f16_at"
            } else {
                "bf16_at"
            };
            let from_word = load_raw.replace(&elem, &format!("{half}(w, h)"));
            p.push_str(&format!(
                "struct Pair {{ a: S, b: S }}\n\
                 fn load_half(w: u32, h: u32, j: u32) -> S {{ {from_word} }}\n\
                 fn load2(k0: u32, j0: u32) -> Pair {{ let k = params.src_base + k0; \
                 let j = params.j_base + j0; let w = src[k >> 1u]; \
                 return Pair(load_half(w, 0u, j), load_half(w, 1u, j)); }}\n"
            ));
        }
        p.push_str(&format!("fn finalize(s: S) -> {out} {{ {finalize} }}\n"));
        if self.layout == Layout::Flat {
            // Argmax: NaN keys beat everything and anything beats i32::MIN; argmin mirrors it.
            let (nan, id, better) = if op == ReduceOp::Argmax {
                ("0x7fffffffi", "(-2147483647i - 1i)", ">")
            } else {
                ("(-2147483647i - 1i)", "0x7fffffffi", "<")
            };
            p.push_str(&format!(
                "@group(0) @binding(0) var<storage, read> src_vec: array<vec4<f32>>;\n\
                 const KEY_NAN: i32 = {nan};\nconst KEY_ID: i32 = {id};\n\
                 fn better4(k: vec4<i32>, best: vec4<i32>) -> vec4<bool> {{ return k {better} best; }}\n"
            ));
        }
        if self.dst_final {
            p.push_str("fn store(o: u32, s: S) { dst[params.dst_base + o] = finalize(s); }\n");
        } else {
            p.push_str(
                "fn store(o: u32, s: S) {\n\
                 \x20   let at = params.dst_base + o;\n\
                 \x20   if (params.flags & 2u) != 0u { dst[at] = combine(dst[at], s); } else { dst[at] = s; }\n\
                 }\n",
            );
        }
        p.push('\n');
        p
    }
}

/// Which pass of a scan a [`ScanVariant`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScanMode {
    /// Each tile is a whole row unit: scan it, no carry (one pass for short rows).
    Tile,
    /// Reduce-then-scan, first pass: each tile's total.
    Reduce,
    /// Reduce-then-scan, last pass: scan each tile, adding the scanned totals of the tiles
    /// before it (read from the auxiliary binding).
    Downsweep,
    /// Single pass: decoupled look-back with fallback.
    Lookback,
    /// Short rows: one invocation scans a whole row, element by element.
    Serial,
}

impl ScanMode {
    /// Every mode.
    pub const ALL: [ScanMode; 5] = [
        ScanMode::Tile,
        ScanMode::Reduce,
        ScanMode::Downsweep,
        ScanMode::Lookback,
        ScanMode::Serial,
    ];

    /// Lower-case name, as used in kernel labels.
    pub const fn name(self) -> &'static str {
        match self {
            ScanMode::Tile => "tile",
            ScanMode::Reduce => "reduce",
            ScanMode::Downsweep => "downsweep",
            ScanMode::Lookback => "lookback",
            ScanMode::Serial => "serial",
        }
    }

    const fn code(self) -> u32 {
        match self {
            ScanMode::Tile => 0,
            ScanMode::Reduce => 1,
            ScanMode::Downsweep => 2,
            ScanMode::Lookback => 3,
            ScanMode::Serial => 4,
        }
    }
}

/// Vec4 slots each thread of a scan holds (a tile is `workgroup_size * 4 * SCAN_SLOTS` elements).
pub const SCAN_SLOTS: u32 = 4;

/// Elements per scan tile at `workgroup_size` invocations.
pub fn scan_tile_len(workgroup_size: u32) -> u32 {
    workgroup_size * 4 * SCAN_SLOTS
}

/// How a scan pass's tiles load and store their slots of 4 elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScanAccess {
    /// Element by element (a buffer is not padded to 16 bytes).
    Scalar,
    /// vec4 loads and stores; every tile starts where its slots do (rows on 16-byte boundaries).
    Vec,
    /// vec4 loads and stores for rows that may start off a 16-byte boundary (their length is not
    /// a multiple of 4): tiled from the boundary before the row, its edges masked (`tile_geo` in
    /// shaders/scan.wgsl).
    Shifted,
}

impl ScanAccess {
    /// Every kind.
    pub const ALL: [ScanAccess; 3] = [ScanAccess::Scalar, ScanAccess::Vec, ScanAccess::Shifted];

    fn vec(self) -> bool {
        self != ScanAccess::Scalar
    }

    fn name(self) -> &'static str {
        match self {
            ScanAccess::Scalar => "scalar",
            ScanAccess::Vec => "vec",
            ScanAccess::Shifted => "shift",
        }
    }
}

/// One specialisation of the tile scan (`shaders/scan.wgsl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScanVariant {
    /// The scan's operation.
    pub op: ScanOp,
    /// Element type read (f32, i32, u32, f16, bf16); values are f32, i32 or u32.
    pub input: DType,
    /// Which pass.
    pub mode: ScanMode,
    /// Exclusive (else inclusive) output.
    pub exclusive: bool,
    /// How tiles reach memory.
    pub access: ScanAccess,
    /// Workgroup size, one of [`WORKGROUP_SIZES`], or [`SCAN_ROW_WORKGROUP`] for the pass over
    /// rows of one tile ([`ScanMode::Tile`]).
    pub workgroup_size: u32,
    /// Subgroup operations for the group step.
    pub subgroups: bool,
}

impl ScanVariant {
    /// Every variant the library can build.
    pub fn all() -> Vec<ScanVariant> {
        let mut v = Vec::new();
        for op in ScanOp::ALL {
            for input in DType::ALL {
                for mode in ScanMode::ALL {
                    for exclusive in [false, true] {
                        for access in ScanAccess::ALL {
                            for workgroup_size in
                                WORKGROUP_SIZES.into_iter().chain([SCAN_ROW_WORKGROUP])
                            {
                                for subgroups in [false, true] {
                                    let k = ScanVariant {
                                        op,
                                        input,
                                        mode,
                                        exclusive,
                                        access,
                                        workgroup_size,
                                        subgroups,
                                    };
                                    if k.is_valid() {
                                        v.push(k);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        v
    }

    /// Whether this combination is one the library builds.
    pub fn is_valid(&self) -> bool {
        // The tile total is inclusive by nature; a serial pass needs neither vec4 access nor
        // subgroups.
        let reduce_ok = self.mode != ScanMode::Reduce || !self.exclusive;
        let serial_ok =
            self.mode != ScanMode::Serial || (self.access == ScanAccess::Scalar && !self.subgroups);
        let size_ok = WORKGROUP_SIZES.contains(&self.workgroup_size)
            || (self.workgroup_size == SCAN_ROW_WORKGROUP && self.mode == ScanMode::Tile);
        reduce_ok && serial_ok && size_ok
    }

    /// Elements per tile.
    pub fn tile(&self) -> u32 {
        scan_tile_len(self.workgroup_size)
    }

    /// The value (and output) type.
    pub fn value(&self) -> DType {
        self.op.output(self.input)
    }

    /// A short name, e.g. `scan_lookback_add_f32_incl_vec_wg256_sg`.
    pub fn label(&self) -> String {
        format!(
            "scan_{}_{}_{}_{}_{}_wg{}{}",
            self.mode.name(),
            self.op.name(),
            self.input,
            if self.exclusive { "excl" } else { "incl" },
            self.access.name(),
            self.workgroup_size,
            if self.subgroups { "_sg" } else { "" }
        )
    }

    /// The full WGSL source of this variant.
    pub fn source(&self) -> String {
        let mut s = self.prelude();
        s.push_str(COMMON_WGSL);
        s.push_str(SCAN_WGSL);
        s.push_str(SCAN_VEC_WGSL);
        s.push_str(if self.subgroups {
            SCAN_VEC_SUBGROUP_WGSL
        } else {
            SCAN_VEC_TREE_WGSL
        });
        let (lane, groups) = if self.subgroups {
            ("Lane(lid, sg_id, sg_lane)", "Groups(sg_size, n_sg)")
        } else {
            ("Lane(lid, 0u, lid)", "Groups(WG, 1u)")
        };
        let builtins = if self.subgroups {
            ",\n    @builtin(subgroup_invocation_id) sg_lane: u32,\n    \
             @builtin(subgroup_size) sg_size: u32,\n    @builtin(subgroup_id) sg_id: u32,\n    \
             @builtin(num_subgroups) n_sg: u32"
        } else {
            ""
        };
        let call = match self.mode {
            ScanMode::Reduce => "reduce_entry(ln, gr, t)".to_string(),
            ScanMode::Serial => "serial_entry(ln, t)".to_string(),
            ScanMode::Lookback => "lookback_entry(ln, gr)".to_string(),
            m => format!("scan_entry(ln, gr, t, {}u)", m.code()),
        };
        s.push_str(&format!(
            "\n@compute @workgroup_size(WG)\nfn main(\n    \
             @builtin(local_invocation_index) lid: u32,\n    \
             @builtin(workgroup_id) wid: vec3<u32>{builtins},\n) {{\n    \
             let ln = {lane};\n    let gr = {groups};\n    \
             let t = wid.y * params.groups_x + wid.x;\n    {call};\n}}\n"
        ));
        s
    }

    fn prelude(&self) -> String {
        let v = self.value();
        let vt = v.wgsl();
        // Float min/max scan keys (see scan_keys): one integer min/max per combine instead of
        // two exact float keys and two NaN tests, which made these scans ALU-bound.
        let keyed = self.op != ScanOp::Add && v.is_float();
        let half = self.input.is_half();
        let t = self.input.wgsl();
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels.rs).\n\
             const WG: u32 = {wg}u;\nconst K: u32 = {slots}u;\nconst TILE: u32 = {tile}u;\n\
             const EXCLUSIVE: bool = {excl};\n\
             const VEC_LOADS: bool = {aligned};\nconst VEC_STORES: bool = {stores};\n\
             const SHIFTED: bool = {shifted};\n\
             // The fallback may publish a total it computed only where every way of computing\n\
             // it gives the same bits (not float sums).\n\
             const PUBLISH_FALLBACK: bool = {publish};\n\
             // R: the values read and written; V: what the scan combines (R, or for float\n\
             // min/max order-preserving integer keys).\n\
             alias R = {vt};\nalias V = {internal};\n",
            label = self.label(),
            wg = self.workgroup_size,
            slots = SCAN_SLOTS,
            tile = self.tile(),
            excl = self.exclusive,
            aligned = self.access.vec(),
            shifted = self.access == ScanAccess::Shifted,
            stores = self.access.vec() && self.mode != ScanMode::Reduce,
            publish = !(self.op == ScanOp::Add && v.is_float()),
            internal = if keyed { "i32" } else { vt },
        );
        let reduce_op = match self.op {
            ScanOp::Add => ReduceOp::Sum,
            ScanOp::Min => ReduceOp::Min,
            ScanOp::Max => ReduceOp::Max,
        };
        if keyed {
            p.push_str(&scan_keys(self.op));
        } else {
            let (combine, combine4, _) = scalar_combine(reduce_op, v);
            p.push_str(&format!(
                "fn identity_v() -> V {{ return {id}; }}\n\
                 fn combine_v(a: V, b: V) -> V {{ return {combine}; }}\n\
                 fn combine_v4(a: vec4<V>, b: vec4<V>) -> vec4<V> {{ return {combine4}; }}\n\
                 fn in_v(x: R) -> V {{ return x; }}\n\
                 fn in_v4(x: vec4<R>) -> vec4<V> {{ return x; }}\n\
                 fn out_v(v: V) -> R {{ return v; }}\n\
                 fn out_v4(v: vec4<V>) -> vec4<R> {{ return v; }}\n",
                id = identity_expr(reduce_op, v),
            ));
        }
        let (vec_ty, load_elem, load_slot) = match self.input {
            DType::F16 => (
                "vec2<u32>",
                "return f16_at(src[e >> 1u], e);",
                "return f16_four(src_vec[q]);",
            ),
            DType::BF16 => (
                "vec2<u32>",
                "return bf16_at(src[e >> 1u], e);",
                "let w = src_vec[q]; return bitcast<vec4<f32>>(vec4<u32>(w.x << 16u, w.x & 0xffff0000u, w.y << 16u, w.y & 0xffff0000u));",
            ),
            _ => ("", "return R(src[e]);", "return vec4<R>(src_vec[q]);"),
        };
        let vec_ty = if half {
            vec_ty.to_string()
        } else {
            format!("vec4<{t}>")
        };
        p.push_str(&format!(
            "@group(0) @binding(0) var<storage, read> src_vec: array<{vec_ty}>;\n\
             @group(0) @binding(1) var<storage, read> src: array<{t}>;\n\
             fn raw_elem(e: u32) -> R {{ {load_elem} }}\n\
             fn raw_slot(q: u32) -> vec4<R> {{ {load_slot} }}\n\
             fn load_elem(e: u32) -> V {{ return in_v(raw_elem(e)); }}\n\
             fn load_slot(q: u32) -> vec4<V> {{ return in_v4(raw_slot(q)); }}\n"
        ));
        if self.access.vec() && self.mode != ScanMode::Reduce {
            p.push_str(
                "@group(0) @binding(2) var<storage, read_write> dst: array<vec4<R>>;\n\
                 fn store_elem(e: u32, v: V) { dst[e >> 2u][e & 3u] = out_v(v); }\n\
                 fn store_slot(q: u32, v: vec4<V>) { dst[q] = out_v4(v); }\n",
            );
        } else {
            p.push_str(
                "@group(0) @binding(2) var<storage, read_write> dst: array<R>;\n\
                 fn store_elem(e: u32, v: V) { dst[e] = out_v(v); }\n\
                 fn store_slot(q: u32, v: vec4<V>) { let r = out_v4(v); for (var c = 0u; c < 4u; c += 1u) { dst[4u * q + c] = r[c]; } }\n",
            );
        }
        if self.subgroups {
            let body = if self.op == ScanOp::Add {
                "return subgroupInclusiveAdd(v);".to_string()
            } else {
                "var x = v; for (var d = 1u; d < size; d <<= 1u) { let o = subgroupShuffleUp(x, d); if lane >= d { x = combine_v4(o, x); } } return x;".to_string()
            };
            p.push_str(&format!(
                "fn subgroup_inclusive4(v: vec4<V>, lane: u32, size: u32) -> vec4<V> {{ {body} }}\n"
            ));
        }
        p.push('\n');
        p
    }
}

/// WGSL for float min/max scans: values are combined as order-preserving i32 keys (`i ^ ((i >>
/// 31) & 0x7fffffff)`, its own inverse, as in the whole-array kernel's `thread_state`). A NaN
/// read becomes the quiet NaN whose key lies beyond every other (positive for max, negative for
/// min), so it propagates from its position on through plain integer max/min; results leave
/// as the canonical quiet NaN 0x7fc00000. Keys order -0.0 below +0.0 (IEEE 754-2019 minimum
/// and maximum): a max of -0.0 and +0.0 is +0.0, a min -0.0, in either order.
fn scan_keys(op: ScanOp) -> String {
    let (f, nan, id) = if op == ScanOp::Max {
        ("max", "0x7fc00000u", "0x807fffffu")
    } else {
        ("min", "0xffc00000u", "0x7f800000u")
    };
    format!(
        "fn identity_v() -> V {{ return bitcast<i32>({id}); }}\n\
         fn combine_v(a: V, b: V) -> V {{ return {f}(a, b); }}\n\
         fn combine_v4(a: vec4<V>, b: vec4<V>) -> vec4<V> {{ return {f}(a, b); }}\n\
         fn in_v(x: R) -> V {{\n    \
             let b = bitcast<u32>(x);\n    \
             let i = bitcast<i32>(select(b, {nan}, (b & 0x7fffffffu) > 0x7f800000u));\n    \
             return i ^ ((i >> 31u) & 0x7fffffff);\n}}\n\
         fn in_v4(x: vec4<R>) -> vec4<V> {{\n    \
             let b = bitcast<vec4<u32>>(x);\n    \
             let n = (b & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);\n    \
             let i = bitcast<vec4<i32>>(select(b, vec4<u32>({nan}), n));\n    \
             return i ^ ((i >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff));\n}}\n\
         fn out_v(v: V) -> R {{\n    \
             let b = bitcast<u32>(v ^ ((v >> 31u) & 0x7fffffff));\n    \
             return bitcast<R>(select(b, 0x7fc00000u, (b & 0x7fffffffu) > 0x7f800000u));\n}}\n\
         fn out_v4(v: vec4<V>) -> vec4<R> {{\n    \
             let b = bitcast<vec4<u32>>(v ^ ((v >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff)));\n    \
             let n = (b & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);\n    \
             return bitcast<vec4<R>>(select(b, vec4<u32>(0x7fc00000u), n));\n}}\n"
    )
}

/// The f32 → 16-bit conversion kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackVariant {
    /// [`DType::F16`] or [`DType::BF16`].
    pub output: DType,
}

impl PackVariant {
    /// Both variants.
    pub fn all() -> Vec<PackVariant> {
        vec![
            PackVariant { output: DType::F16 },
            PackVariant {
                output: DType::BF16,
            },
        ]
    }

    /// `pack_f16` or `pack_bf16`.
    pub fn label(&self) -> String {
        format!("pack_{}", self.output)
    }

    /// The full WGSL source.
    pub fn source(&self) -> String {
        let conv = if self.output == DType::BF16 {
            "f32_to_bf16_bits"
        } else {
            "f32_to_f16_bits"
        };
        format!(
            "// Variant {}: generated prelude (src/kernels.rs).\nconst WG: u32 = 256u;\n\
             fn convert(x: f32) -> u32 {{ return {conv}(x); }}\n\n{COMMON_WGSL}{PACK_WGSL}",
            self.label()
        )
    }
}

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
    pub(crate) fn new(device: &wgpu::Device, backend: wgpu::Backend) -> Kernels {
        let widening = F16Widening::for_backend(backend);
        let browser = backend == wgpu::Backend::BrowserWebGpu;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("wgpu-reduce"),
            entries: &[
                storage_entry(0, true),
                storage_entry(1, true),
                storage_entry(2, false),
                storage_entry(4, false),
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
            cache: None,
        })
    }

    pub(crate) fn insert(&self, kernel: Kernel, pipeline: wgpu::ComputePipeline) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(kernel, pipeline);
    }
}
