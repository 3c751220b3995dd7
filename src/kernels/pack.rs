//! The f32 → f16/bf16 conversion kernel.

use super::source::wgsl;
use crate::element::DType;

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
        let to = if self.output == DType::BF16 {
            "bf16"
        } else {
            "f16"
        };
        format!(
            "// Variant {}: generated prelude (src/kernels/pack.rs).\nconst WG: u32 = 256u;\n\n\
             // The conversion to {to} bits (round to nearest even).\n\
             fn convert(x: f32) -> u32 {{ return f32_to_{to}_bits(x); }}\n\n{}{}",
            self.label(),
            wgsl!("shared/common.wgsl"),
            wgsl!("util/pack.wgsl"),
        )
    }
}
