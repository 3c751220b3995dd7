//! The whole-array kernel's variants (sum, prod, min, max, mean).

use super::source::wgsl;
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
            DType::F16 => wgsl!("reduce/load_f16.wgsl"),
            DType::BF16 => wgsl!("reduce/load_bf16.wgsl"),
            _ => wgsl!("reduce/load_32.wgsl"),
        };
        let mut files = vec![load];
        files.extend(type_files(op, acc));
        files.push(scalar_hooks(op, acc));
        if keyed {
            files.extend([key_hooks(op), wgsl!("reduce/state_keys.wgsl")]);
        } else if self.half_keys().is_some() {
            files.extend([
                wgsl!("shared/keys16.wgsl"),
                wgsl!("reduce/state_keys16.wgsl"),
            ]);
        } else {
            files.push(wgsl!("reduce/state.wgsl"));
        }
        files.push(if op == ReduceOp::Mean {
            wgsl!("ops/mean.wgsl")
        } else {
            wgsl!("ops/keep.wgsl")
        });
        if self.subgroups {
            files.extend([
                subgroup_hooks(op, acc),
                wgsl!("shared/common.wgsl"),
                wgsl!("reduce/reduce.wgsl"),
            ]);
            files.push(wgsl!("reduce/group_subgroup.wgsl"));
        } else {
            files.extend([
                wgsl!("shared/common.wgsl"),
                wgsl!("reduce/reduce.wgsl"),
                wgsl!("reduce/group_tree.wgsl"),
            ]);
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
