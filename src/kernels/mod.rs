//! Shader variants: the one place where kernels are specialised, and the pipeline cache.
//!
//! A kernel's source is a short generated *prelude* (type aliases such as the element type `T`
//! and the value type `A` or `V`, and constants such as the workgroup size `WG`) followed by
//! whole files of `shaders/` ([`source::FILES`], one folder per family): the operation's hooks
//! (`ops/`: `identity`, `combine`, states, `finalize`, keys), the value type's bounds
//! (`shared/type_*.wgsl`), the element type's loads and stores (each family's `load_*` and
//! `elem_*` files), shared helpers (`shared/common.wgsl`) and the kernel itself. The families
//! ([`Kernel`]):
//!
//! - [`ReduceVariant`]: the whole-array kernel (`reduce/reduce.wgsl` plus a workgroup step,
//!   `reduce/group_tree.wgsl` or `reduce/group_subgroup.wgsl`) for sum, prod, min, max and
//!   mean: grid-stride vec4 loads, four accumulators.
//! - [`AxisVariant`]: the general kernel (`axis/axis.wgsl`) for an input viewed as
//!   `[outer, r, inner]` reduced over `r`, in several [`Layout`]s (`axis/entry_*.wgsl`,
//!   `axis/flat.wgsl`, `axis/col_pairs.wgsl`). Every operation, including argmin/argmax and
//!   var/std, is a *state* type `S` with `identity`, `combine` and a state made from an element
//!   (`from_elem`); partial results between passes are states, and the last pass applies
//!   `finalize` (mean's division, var's correction, std's square root, arg's index).
//! - [`ScanVariant`]: the passes of a prefix scan (`scan/common.wgsl`, `scan/passes.wgsl`, a
//!   group step `scan/group_*.wgsl`; the prelude picks the pass).
//! - [`PackVariant`]: converts f32 results to f16 or bf16 words (`util/pack.wgsl`).
//! - [`Kernel::Fill`]: sets u32 words (`util/fill.wgsl`).
//! - [`SortVariant`]: the passes of the radix sort (`sort/`): per 8-bit digit, a count of each
//!   tile's digits and a stable scatter, with a scan of the counts between them; short rows
//!   sorted a workgroup each; the radix select of top-k and kthvalue.
//! - [`CompactVariant`]: compaction (`compact/`): a count of each tile's kept elements and a
//!   stable scatter, with a scan of the counts between them; run lengths, nonzero's
//!   coordinates, and histograms.
//!
//! Each family reads a typed parameter struct ([`params`]).
//!
//! [`Kernel::all`] lists every variant the library can build; a test runs each through naga
//! (parse, validate, MSL, SPIR-V and HLSL output). Pipelines are compiled on first use and cached
//! per variant (one cache per context).

mod axis;
mod cache;
#[cfg(feature = "validate")]
mod check;
mod compact;
mod pack;
pub mod params;
mod reduce;
mod scan;
mod sort;
pub mod source;

use source::wgsl;

use crate::element::DType;
use crate::ops::ReduceOp;

/// The operation's scalar hooks for sum, prod, min, max and mean over values of type `v`: the
/// file of `identity`, `combine` and `combine4` (over the value type `A`), and the file of its
/// subgroup form, `subgroup_combine`.
fn op_hooks(op: ReduceOp, v: DType) -> [&'static str; 2] {
    match (op, v.is_float()) {
        (ReduceOp::Prod, _) => [wgsl!("ops/mul.wgsl"), wgsl!("ops/mul_subgroup.wgsl")],
        (ReduceOp::Min, true) => [
            wgsl!("ops/min_float.wgsl"),
            wgsl!("ops/min_float_subgroup.wgsl"),
        ],
        (ReduceOp::Min, false) => [wgsl!("ops/min.wgsl"), wgsl!("ops/min_subgroup.wgsl")],
        (ReduceOp::Max, true) => [
            wgsl!("ops/max_float.wgsl"),
            wgsl!("ops/max_float_subgroup.wgsl"),
        ],
        (ReduceOp::Max, false) => [wgsl!("ops/max.wgsl"), wgsl!("ops/max_subgroup.wgsl")],
        _ => [wgsl!("ops/add.wgsl"), wgsl!("ops/add_subgroup.wgsl")],
    }
}

/// The file of `identity`, `combine` and `combine4` (see [`op_hooks`]).
fn scalar_hooks(op: ReduceOp, v: DType) -> &'static str {
    op_hooks(op, v)[0]
}

/// The file of `subgroup_combine` (see [`op_hooks`]).
fn subgroup_hooks(op: ReduceOp, v: DType) -> &'static str {
    op_hooks(op, v)[1]
}

/// Min or max over order-preserving integer keys of f32 values (`key_identity`, `key_pick`).
fn key_hooks(op: ReduceOp) -> &'static str {
    if op == ReduceOp::Min {
        wgsl!("ops/min_keys.wgsl")
    } else {
        wgsl!("ops/max_keys.wgsl")
    }
}

/// Bounds and comparison keys of the value type (f32, i32 or u32), for the operations that use
/// them: the arg states, aminmax, and min/max (any/all) of integers.
fn type_files(op: ReduceOp, v: DType) -> Vec<&'static str> {
    let uses = op.is_arg()
        || op == ReduceOp::AMinMax
        || (matches!(
            op,
            ReduceOp::Min | ReduceOp::Max | ReduceOp::Any | ReduceOp::All
        ) && !v.is_float());
    match v {
        _ if !uses => vec![],
        DType::I32 => vec![wgsl!("shared/type_i32.wgsl")],
        DType::U32 => vec![wgsl!("shared/type_u32.wgsl")],
        _ => vec![wgsl!("shared/type_f32.wgsl")],
    }
}

/// A kernel's source: its generated prelude, then whole files in order.
fn compose(prelude: String, files: &[&str]) -> String {
    let mut s = prelude;
    s.push('\n');
    for f in files {
        s.push_str(f);
    }
    s
}

pub use axis::{AxisVariant, Layout};
pub(crate) use cache::Kernels;
pub use compact::{CompactVariant, COMPACT_TILE, HISTOGRAM_PRIVATE_BINS, HISTOGRAM_TILE};
pub use pack::PackVariant;
pub use reduce::ReduceVariant;
pub use scan::{scan_tile_len, ScanAccess, ScanMode, ScanVariant, SCAN_SLOTS};
pub(crate) use scan::{
    CLEAN_STATE_WORDS, FLAT_LAST_GROUP_MAX_GROUPS, INDEPENDENT_SLOTS, LOOKBACK_CLEAN_TILES,
};
pub use sort::{SortVariant, SORT_ROW_MAX, SORT_SUBGROUP_MAX, SORT_SUBGROUP_MIN, SORT_TILE};

/// Workgroup sizes the kernels are built for (see [`Tuning::workgroup_size`](crate::Tuning)).
pub const WORKGROUP_SIZES: [u32; 3] = [64, 128, 256];

/// The larger workgroup size of scan passes over rows that fit one tile of it, and of the
/// look-back over one long row (see [`Tuning::scan_row_workgroup_size`](crate::Tuning)).
pub const SCAN_ROW_WORKGROUP: u32 = 512;

/// Workgroup memory the scan shaders declare at [`SCAN_ROW_WORKGROUP`] invocations, counted
/// whether a pass uses it or not: a vec4 (group scan) and two values (group totals, look-back
/// window) per invocation, and a few words.
pub(crate) const SCAN_ROW_WORKGROUP_STORAGE: u32 = SCAN_ROW_WORKGROUP * (16 + 4 + 4) + 64;

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
            F16Widening::Native => wgsl!("shared/f16_native.wgsl"),
            F16Widening::Integer => wgsl!("shared/f16_integer.wgsl"),
        }
    }
}

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
    /// Checks a segmented reduction's offsets (fill parameters).
    CheckOffsets,
    /// A pass of the radix sort.
    Sort(SortVariant),
    /// A kernel of compaction, runs or histograms.
    Compact(CompactVariant),
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
        v.push(Kernel::CheckOffsets);
        v.extend(SortVariant::all().into_iter().map(Kernel::Sort));
        v.extend(CompactVariant::all().into_iter().map(Kernel::Compact));
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
            Kernel::CheckOffsets => "check_offsets".into(),
            Kernel::Sort(k) => k.label(),
            Kernel::Compact(k) => k.label(),
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
            Kernel::Fill => return wgsl!("util/fill.wgsl").to_string(),
            Kernel::CheckOffsets => return wgsl!("axis/check_offsets.wgsl").to_string(),
            Kernel::Sort(k) => return k.source(),
            Kernel::Compact(k) if k.widens_f16() => k.source(),
            Kernel::Compact(k) => return k.source(),
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

    /// The family of parameters the kernel reads.
    pub fn family(&self) -> params::Family {
        match self {
            Kernel::Reduce(_) => params::Family::Reduce,
            Kernel::Axis(_) => params::Family::Axis,
            Kernel::Pack(_) => params::Family::Pack,
            Kernel::Scan(_) => params::Family::Scan,
            Kernel::Fill | Kernel::CheckOffsets => params::Family::Fill,
            Kernel::Sort(_) => params::Family::Sort,
            Kernel::Compact(_) => params::Family::Compact,
        }
    }

    /// Whether the kernel uses subgroup operations.
    pub fn uses_subgroups(&self) -> bool {
        match self {
            Kernel::Reduce(k) => k.subgroups,
            Kernel::Scan(k) => k.subgroups,
            Kernel::Sort(SortVariant::Scatter { subgroups, .. })
            | Kernel::Sort(SortVariant::Count { subgroups }) => *subgroups,
            _ => false,
        }
    }
}
