//! The whole-array kernel's variants (sum, prod, min, max, mean).

use super::source::*;
use super::WORKGROUP_SIZES;
use super::{compose, key_hooks, scalar_hooks, subgroup_hooks, type_files};
use crate::element::DType;
use crate::ops::ReduceOp;

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
        let (op, acc) = (self.op, self.accumulator());
        let keyed = self.input == DType::F32 && matches!(op, ReduceOp::Min | ReduceOp::Max);
        let load = match self.input {
            DType::F16 => LOADS_REDUCE_F16_WGSL,
            DType::BF16 => LOADS_REDUCE_BF16_WGSL,
            _ => LOADS_REDUCE_32_WGSL,
        };
        let mut files = vec![load];
        files.extend(type_files(op, acc));
        files.push(scalar_hooks(op, acc));
        if keyed {
            files.extend([key_hooks(op), REDUCE_STATE_KEYS_WGSL]);
        } else if self.half_keys().is_some() {
            files.extend([KEYS16_WGSL, REDUCE_STATE_KEYS16_WGSL]);
        } else {
            files.push(REDUCE_STATE_WGSL);
        }
        files.push(if op == ReduceOp::Mean {
            OPS_MEAN_WGSL
        } else {
            OPS_KEEP_WGSL
        });
        if self.subgroups {
            files.extend([subgroup_hooks(op, acc), COMMON_WGSL, REDUCE_WGSL]);
            files.push(REDUCE_SUBGROUP_WGSL);
        } else {
            files.extend([COMMON_WGSL, REDUCE_WGSL, REDUCE_TREE_WGSL]);
        }
        compose(self.prelude(), &files)
    }

    /// Min and max of 16-bit input keep 16-bit keys (shaders/reduce_state_keys16.wgsl):
    /// KEYS_MAX.
    fn half_keys(&self) -> Option<bool> {
        match self.op {
            ReduceOp::Min | ReduceOp::Max if self.input.is_half() => Some(self.op == ReduceOp::Max),
            _ => None,
        }
    }

    /// Types and constants.
    fn prelude(&self) -> String {
        let t = self.input.wgsl();
        let a = self.accumulator().wgsl();
        let epv = if self.input.is_half() { 8 } else { 4 };
        let keys = match self.half_keys() {
            Some(max) => format!("const KEYS_MAX: bool = {max};\n"),
            None => String::new(),
        };
        format!(
            "// Variant {label}: generated prelude (src/kernels/reduce.rs).\n\
             alias T = {t};\nalias A = {a};\nconst WG: u32 = {wg}u;\n\
             // Elements per vec4 word of the input.\nconst EPV: u32 = {epv}u;\n{keys}",
            label = self.label(),
            wg = self.workgroup_size,
        )
    }
}
