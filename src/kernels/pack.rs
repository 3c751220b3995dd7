//! The f32 → f16/bf16 conversion kernel.

use super::source::{COMMON_WGSL, LOADS_PACK_BF16_WGSL, LOADS_PACK_F16_WGSL, PACK_WGSL};
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
        let convert = if self.output == DType::BF16 {
            LOADS_PACK_BF16_WGSL
        } else {
            LOADS_PACK_F16_WGSL
        };
        format!(
            "// Variant {}: generated prelude (src/kernels/pack.rs).\nconst WG: u32 = 256u;\n\n\
             {convert}{COMMON_WGSL}{PACK_WGSL}",
            self.label()
        )
    }
}
