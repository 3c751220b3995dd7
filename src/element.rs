//! Element types that GPU arrays can hold.
//!
//! [`DType`] names an element type at run time (it keys shader variants); [`Element`] ties a Rust
//! type to its `DType`. The trait is sealed: the kernels must know each type. Types narrower than
//! 32 bits (f16, bf16) slot in by adding a `DType` with its WGSL load code in
//! [`kernels`](crate::kernels); the accumulator type (`DType::accumulator`) is where they widen to
//! f32.

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
}

impl DType {
    /// Every element type the library supports, in a fixed order.
    pub const ALL: [DType; 3] = [DType::F32, DType::I32, DType::U32];

    /// Bytes per element.
    pub const fn size_bytes(self) -> usize {
        match self {
            DType::F32 | DType::I32 | DType::U32 => 4,
        }
    }

    /// The WGSL scalar type that holds one element in a storage buffer.
    pub const fn wgsl(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::I32 => "i32",
            DType::U32 => "u32",
        }
    }

    /// Whether this is a floating-point type.
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F32)
    }

    /// Lower-case name (`f32`, `i32`, `u32`), as accepted by [`DType::parse`].
    pub const fn name(self) -> &'static str {
        self.wgsl()
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
}

/// A Rust type that can live in a [`GpuArray`](crate::GpuArray).
///
/// Implemented for `f32`, `i32` and `u32`. Sealed: the set of types is fixed by the kernels.
pub trait Element:
    sealed::Sealed + bytemuck::Pod + Copy + Send + Sync + fmt::Debug + PartialEq + 'static
{
    /// The run-time name of this type.
    const DTYPE: DType;
}

impl Element for f32 {
    const DTYPE: DType = DType::F32;
}
impl Element for i32 {
    const DTYPE: DType = DType::I32;
}
impl Element for u32 {
    const DTYPE: DType = DType::U32;
}
