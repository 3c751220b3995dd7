//! The general `[outer, r, inner]` kernel's variants: every operation, six layouts.

use super::source::*;
use super::WORKGROUP_SIZES;
use super::{compose, scalar_hooks, type_files};
use crate::element::DType;
use crate::ops::ReduceOp;

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
        let (op, v) = (self.op, self.op.accumulator(self.input));
        let mut files = Vec::new();
        if !self.src_state {
            let (elem, pairs) = match self.input {
                DType::F16 => (LOADS_AXIS_F16_WGSL, LOADS_AXIS_F16_PAIRS_WGSL),
                DType::BF16 => (LOADS_AXIS_BF16_WGSL, LOADS_AXIS_BF16_PAIRS_WGSL),
                _ => (LOADS_AXIS_32_WGSL, ""),
            };
            files.push(elem);
            if self.layout == Layout::ColPairs {
                files.push(pairs);
            }
        }
        files.extend(type_files(op, v));
        match op {
            ReduceOp::Var | ReduceOp::Std => files.push(OPS_VAR_WGSL),
            ReduceOp::Argmin | ReduceOp::Argmax => files.push(OPS_ARG_WGSL),
            ReduceOp::Mean => files.extend([OPS_ADD_WGSL, OPS_VALUE_WGSL, OPS_MEAN_WGSL]),
            _ => files.extend([scalar_hooks(op, v), OPS_VALUE_WGSL, OPS_KEEP_WGSL]),
        }
        files.push(if self.src_state {
            AXIS_LOAD_STATE_WGSL
        } else {
            AXIS_LOAD_RAW_WGSL
        });
        files.push(if self.dst_final {
            AXIS_STORE_FINAL_WGSL
        } else {
            AXIS_STORE_STATE_WGSL
        });
        files.extend([COMMON_WGSL, REDUCE_AXIS_WGSL]);
        files.push(match self.layout {
            Layout::Flat => REDUCE_FLAT_WGSL,
            Layout::ColPairs => REDUCE_COL_PAIRS_WGSL,
            Layout::Rows => ENTRIES_AXIS_ROWS_WGSL,
            Layout::Cols => ENTRIES_AXIS_COLS_WGSL,
            Layout::RowsWide => ENTRIES_AXIS_ROWS_WIDE_WGSL,
            Layout::ColsWide => ENTRIES_AXIS_COLS_WIDE_WGSL,
        });
        compose(self.prelude(), &files)
    }

    /// Types and constants.
    fn prelude(&self) -> String {
        let op = self.op;
        // V: the value type the operation works in.
        let v = op.accumulator(self.input);
        let vt = v.wgsl();
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels/axis.rs).\n\
             const WG: u32 = {wg}u;\nconst WG_SHIFT: u32 = {shift}u;\nalias V = {vt};\nalias A = V;\n",
            label = self.label(),
            wg = self.workgroup_size,
            shift = self.workgroup_size.trailing_zeros(),
        );
        match op {
            ReduceOp::Var | ReduceOp::Std => {
                p.push_str(&format!("const STD: bool = {};\n", op == ReduceOp::Std));
            }
            ReduceOp::Argmin | ReduceOp::Argmax => {
                p.push_str(&format!(
                    "const ARGMAX: bool = {};\n",
                    op == ReduceOp::Argmax
                ));
            }
            _ => {}
        }
        let src = if self.src_state {
            "S"
        } else {
            self.input.wgsl()
        };
        let dst = if self.dst_final {
            op.output(self.input).wgsl()
        } else {
            "S"
        };
        p.push_str(&format!("alias SRC = {src};\nalias DST = {dst};\n"));
        p
    }
}
