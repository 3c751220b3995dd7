//! Element types that GPU arrays can hold.
//!
//! [`DType`] names an element type at run time (it keys shader variants); [`Element`] ties a Rust
//! type to its `DType`. The trait is sealed: the kernels must know each type.
//!
//! The 16-bit floats ([`half::f16`], [`half::bf16`]) are stored two to a 32-bit word and
//! widened to f32 as they are loaded (WGSL's core `unpack2x16float` for f16, a shift for bf16),
//! so they need no device feature and work on every adapter; reductions accumulate them in f32.

use std::fmt;

/// Run-time name of an element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum DType {
    /// 32-bit IEEE float.
    F32,
    /// 32-bit signed integer (two's complement).
    I32,
    /// 32-bit unsigned integer.
    U32,
    /// IEEE binary16 ([`half::f16`]).
    F16,
    /// bfloat16 ([`half::bf16`]): the upper half of an f32.
    BF16,
}

impl DType {
    /// Every element type the library supports, in a fixed order.
    pub const ALL: [DType; 5] = [DType::F32, DType::I32, DType::U32, DType::F16, DType::BF16];

    /// Bytes per element.
    pub const fn size_bytes(self) -> usize {
        match self {
            DType::F32 | DType::I32 | DType::U32 => 4,
            DType::F16 | DType::BF16 => 2,
        }
    }

    /// The WGSL scalar type of a storage-buffer word holding elements of this type (`u32` for
    /// the 16-bit floats, which are packed two to a word).
    pub const fn wgsl(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::I32 => "i32",
            DType::U32 | DType::F16 | DType::BF16 => "u32",
        }
    }

    /// Whether this is a floating-point type.
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::BF16)
    }

    /// Whether this is a 16-bit float (packed two to a word, widened to f32 on load).
    pub const fn is_half(self) -> bool {
        matches!(self, DType::F16 | DType::BF16)
    }

    /// Lower-case name (`f32`, `i32`, `u32`, `f16`, `bf16`), as accepted by [`DType::parse`].
    pub const fn name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::I32 => "i32",
            DType::U32 => "u32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
        }
    }

    /// Parses a name such as `f32`.
    pub fn parse(s: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == s)
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for i32 {}
    impl Sealed for u32 {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}

/// A Rust type that can live in a [`GpuArray`](crate::GpuArray).
///
/// Implemented for `f32`, `i32`, `u32`, [`half::f16`] and [`half::bf16`]. Sealed: the set of types is fixed by the kernels.
pub trait Element:
    sealed::Sealed + bytemuck::Pod + Copy + Send + Sync + fmt::Debug + PartialEq + 'static
{
    /// The run-time name of this type.
    const DTYPE: DType;
    /// The type values are accumulated in, and the result type of scans: f32 for f16 and
    /// bf16, the type itself otherwise.
    type Acc: Element;
}

impl Element for f32 {
    const DTYPE: DType = DType::F32;
    type Acc = f32;
}
impl Element for i32 {
    const DTYPE: DType = DType::I32;
    type Acc = i32;
}
impl Element for u32 {
    const DTYPE: DType = DType::U32;
    type Acc = u32;
}
impl Element for half::f16 {
    const DTYPE: DType = DType::F16;
    type Acc = f32;
}
impl Element for half::bf16 {
    const DTYPE: DType = DType::BF16;
    type Acc = f32;
}
