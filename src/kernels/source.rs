//! The WGSL files of `shaders/`, compiled into the library (as candle-metal-kernels' `source.rs`).

/// WGSL of the per-thread part of the whole-array reduction.
pub const REDUCE_WGSL: &str = include_str!("../../shaders/reduce.wgsl");
/// WGSL of the shared-memory tree workgroup step.
pub const REDUCE_TREE_WGSL: &str = include_str!("../../shaders/reduce_tree.wgsl");
/// WGSL of the subgroup workgroup step.
pub const REDUCE_SUBGROUP_WGSL: &str = include_str!("../../shaders/reduce_subgroup.wgsl");
/// WGSL of the general `[outer, r, inner]` reduction (rows and columns layouts).
pub const REDUCE_AXIS_WGSL: &str = include_str!("../../shaders/reduce_axis.wgsl");
/// The flat layout's entry (argmin/argmax over a whole f32 array), added to the axis kernel.
pub const REDUCE_FLAT_WGSL: &str = include_str!("../../shaders/reduce_flat.wgsl");
/// The column-pairs layout's entry (16-bit columns), added to the axis kernel.
pub const REDUCE_COL_PAIRS_WGSL: &str = include_str!("../../shaders/reduce_col_pairs.wgsl");
/// WGSL of the f32 → f16/bf16 packing kernel.
pub const PACK_WGSL: &str = include_str!("../../shaders/pack.wgsl");
/// WGSL shared by every scan pass: parameters, tile geometry, the decoupled look-back.
pub const SCAN_WGSL: &str = include_str!("../../shaders/scan.wgsl");
/// WGSL of the scan of whole tiles, four vec4 registers per thread.
pub const SCAN_VEC_WGSL: &str = include_str!("../../shaders/scan_vec.wgsl");
/// WGSL of `SCAN_VEC_WGSL`'s shared-memory group step.
pub const SCAN_VEC_TREE_WGSL: &str = include_str!("../../shaders/scan_vec_tree.wgsl");
/// WGSL of `SCAN_VEC_WGSL`'s subgroup group step.
pub const SCAN_VEC_SUBGROUP_WGSL: &str = include_str!("../../shaders/scan_vec_subgroup.wgsl");
/// WGSL of the fill kernel (clears look-back status).
pub const FILL_WGSL: &str = include_str!("../../shaders/fill.wgsl");
/// WGSL helpers shared by every kernel (NaN test, 16-bit loads and conversions).
pub const COMMON_WGSL: &str = include_str!("../../shaders/common.wgsl");
/// f16 widening with `unpack2x16float` (see [`F16Widening::Native`]).
pub const F16_NATIVE_WGSL: &str = include_str!("../../shaders/f16_native.wgsl");
/// f16 widening in integer arithmetic (see [`F16Widening::Integer`]).
pub const F16_INTEGER_WGSL: &str = include_str!("../../shaders/f16_integer.wgsl");

/// Every shader file by name, for the tests that check each file.
pub const FILES: &[(&str, &str)] = &[
    ("reduce.wgsl", REDUCE_WGSL),
    ("reduce_tree.wgsl", REDUCE_TREE_WGSL),
    ("reduce_subgroup.wgsl", REDUCE_SUBGROUP_WGSL),
    ("reduce_axis.wgsl", REDUCE_AXIS_WGSL),
    ("reduce_flat.wgsl", REDUCE_FLAT_WGSL),
    ("reduce_col_pairs.wgsl", REDUCE_COL_PAIRS_WGSL),
    ("pack.wgsl", PACK_WGSL),
    ("scan.wgsl", SCAN_WGSL),
    ("scan_vec.wgsl", SCAN_VEC_WGSL),
    ("scan_vec_tree.wgsl", SCAN_VEC_TREE_WGSL),
    ("scan_vec_subgroup.wgsl", SCAN_VEC_SUBGROUP_WGSL),
    ("fill.wgsl", FILL_WGSL),
    ("common.wgsl", COMMON_WGSL),
    ("f16_native.wgsl", F16_NATIVE_WGSL),
    ("f16_integer.wgsl", F16_INTEGER_WGSL),
];
