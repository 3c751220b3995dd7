//! The WGSL files of `shaders/`, compiled into the library (as candle-metal-kernels' `source.rs`).
//! A kernel's source is a short generated prelude (types, constants, bindings and the element
//! type's loads) followed by whole files from this list (see each variant's `source`).

/// `shaders/axis_entry.wgsl`: the entry of the rows, columns and wide layouts of reduce_axis.wgsl; the prelude sets
pub const AXIS_ENTRY_WGSL: &str = include_str!("../../shaders/axis_entry.wgsl");
/// `shaders/axis_load_raw.wgsl`: a first pass reads input elements (elem_at, from the prelude) and makes states of them
pub const AXIS_LOAD_RAW_WGSL: &str = include_str!("../../shaders/axis_load_raw.wgsl");
/// `shaders/axis_load_state.wgsl`: a later pass reads the states an earlier pass wrote.
pub const AXIS_LOAD_STATE_WGSL: &str = include_str!("../../shaders/axis_load_state.wgsl");
/// `shaders/axis_store_final.wgsl`: a final pass writes finished results.
pub const AXIS_STORE_FINAL_WGSL: &str = include_str!("../../shaders/axis_store_final.wgsl");
/// `shaders/axis_store_state.wgsl`: a pass that is not the last writes states, or combines them into the states already there
pub const AXIS_STORE_STATE_WGSL: &str = include_str!("../../shaders/axis_store_state.wgsl");
/// `shaders/common.wgsl`: helpers shared by every kernel: NaN tests, exact float ordering, and 16-bit float conversions
pub const COMMON_WGSL: &str = include_str!("../../shaders/common.wgsl");
/// `shaders/f16_integer.wgsl`: f16 widening in integer arithmetic (added to every kernel's source on devices without WGSL's
pub const F16_INTEGER_WGSL: &str = include_str!("../../shaders/f16_integer.wgsl");
/// `shaders/f16_native.wgsl`: f16 widening with WGSL's unpack2x16float (added to every kernel's source where the device has
pub const F16_NATIVE_WGSL: &str = include_str!("../../shaders/f16_native.wgsl");
/// `shaders/fill.wgsl`: sets `n` u32 words of dst to `value` (clears look-back status before a single-pass scan).
pub const FILL_WGSL: &str = include_str!("../../shaders/fill.wgsl");
/// `shaders/pack.wgsl`: converts `n` f32 values to 16-bit floats packed two to a u32 word (element 2w in the low half
pub const PACK_WGSL: &str = include_str!("../../shaders/pack.wgsl");
/// `shaders/reduce.wgsl`: whole-array reduction: the per-thread part, shared by both workgroup strategies.
pub const REDUCE_WGSL: &str = include_str!("../../shaders/reduce.wgsl");
/// `shaders/reduce_axis.wgsl`: general reduction of an input viewed as [outer, r, inner] over r, writing [outer, splits, inner]
pub const REDUCE_AXIS_WGSL: &str = include_str!("../../shaders/reduce_axis.wgsl");
/// `shaders/reduce_col_pairs.wgsl`: column pairs layout (added to the source of reduce_axis.wgsl for that layout only; the prelude
pub const REDUCE_COL_PAIRS_WGSL: &str = include_str!("../../shaders/reduce_col_pairs.wgsl");
/// `shaders/reduce_flat.wgsl`: flat layout: the first pass of argmin/argmax over a whole f32 array (added to the source of
pub const REDUCE_FLAT_WGSL: &str = include_str!("../../shaders/reduce_flat.wgsl");
/// `shaders/reduce_state.wgsl`: a thread's running state in the whole-array kernel (reduce.wgsl): four accumulators, one per
pub const REDUCE_STATE_WGSL: &str = include_str!("../../shaders/reduce_state.wgsl");
/// `shaders/reduce_state_keys.wgsl`: a thread's running state for f32 min/max in the whole-array kernel: order-preserving signed
pub const REDUCE_STATE_KEYS_WGSL: &str = include_str!("../../shaders/reduce_state_keys.wgsl");
/// `shaders/reduce_subgroup.wgsl`: workgroup step with subgroup operations. Correct for any subgroup size the device picks
pub const REDUCE_SUBGROUP_WGSL: &str = include_str!("../../shaders/reduce_subgroup.wgsl");
/// `shaders/reduce_tree.wgsl`: workgroup step without subgroup operations: a shared-memory tree. Runs on every device.
pub const REDUCE_TREE_WGSL: &str = include_str!("../../shaders/reduce_tree.wgsl");
/// `shaders/scan.wgsl`: prefix scans (inclusive and exclusive; add, min, max) of rows, tile by tile: what every scan
pub const SCAN_WGSL: &str = include_str!("../../shaders/scan.wgsl");
/// `shaders/scan_entry.wgsl`: the entry of a scan pass with the shared-memory group step; the prelude sets `const MODE: u32`
pub const SCAN_ENTRY_WGSL: &str = include_str!("../../shaders/scan_entry.wgsl");
/// `shaders/scan_entry_subgroup.wgsl`: the entry of a scan pass with the subgroup group step (see scan_entry.wgsl).
pub const SCAN_ENTRY_SUBGROUP_WGSL: &str = include_str!("../../shaders/scan_entry_subgroup.wgsl");
/// `shaders/scan_keys.wgsl`: float min/max scans combine order-preserving i32 keys (`i ^ ((i >> 31) & 0x7fffffff)`, its own
pub const SCAN_KEYS_WGSL: &str = include_str!("../../shaders/scan_keys.wgsl");
/// `shaders/scan_subgroup_add.wgsl`: inclusive subgroup scan of a sum (scan_vec_subgroup.wgsl).
pub const SCAN_SUBGROUP_ADD_WGSL: &str = include_str!("../../shaders/scan_subgroup_add.wgsl");
/// `shaders/scan_subgroup_shuffle.wgsl`: inclusive subgroup scan of min/max by shuffles (scan_vec_subgroup.wgsl); `size` is the
pub const SCAN_SUBGROUP_SHUFFLE_WGSL: &str =
    include_str!("../../shaders/scan_subgroup_shuffle.wgsl");
/// `shaders/scan_values.wgsl`: scans that combine the values themselves (V is R): sums, and integer min/max.
pub const SCAN_VALUES_WGSL: &str = include_str!("../../shaders/scan_values.wgsl");
/// `shaders/scan_vec.wgsl`: the scan passes. Tiles: each thread holds its K = 4 slots as four vec4 registers (no arrays,
pub const SCAN_VEC_WGSL: &str = include_str!("../../shaders/scan_vec.wgsl");
/// `shaders/scan_vec_subgroup.wgsl`: group_scan4 with subgroup operations: a group is one subgroup, of whatever size the device
pub const SCAN_VEC_SUBGROUP_WGSL: &str = include_str!("../../shaders/scan_vec_subgroup.wgsl");
/// `shaders/scan_vec_tree.wgsl`: group_scan4 without subgroup operations: one group of WG lanes (the workgroup), the four
pub const SCAN_VEC_TREE_WGSL: &str = include_str!("../../shaders/scan_vec_tree.wgsl");
/// `shaders/ops/add.wgsl`: addition over the value type A (sums, means and running sums; integers wrap modulo 2^32).
pub const OPS_ADD_WGSL: &str = include_str!("../../shaders/ops/add.wgsl");
/// `shaders/ops/add_subgroup.wgsl`: the subgroup form of add.wgsl.
pub const OPS_ADD_SUBGROUP_WGSL: &str = include_str!("../../shaders/ops/add_subgroup.wgsl");
/// `shaders/ops/arg.wgsl`: argmin and argmax (the prelude sets `const ARGMAX: bool`): states (value, index). The first
pub const OPS_ARG_WGSL: &str = include_str!("../../shaders/ops/arg.wgsl");
/// `shaders/ops/keep.wgsl`: the finish of sum, prod, min and max: the combined value itself.
pub const OPS_KEEP_WGSL: &str = include_str!("../../shaders/ops/keep.wgsl");
/// `shaders/ops/max.wgsl`: maximum of integers (A is i32 or u32).
pub const OPS_MAX_WGSL: &str = include_str!("../../shaders/ops/max.wgsl");
/// `shaders/ops/max_float.wgsl`: maximum of f32 values; NaN propagates (see min_float.wgsl).
pub const OPS_MAX_FLOAT_WGSL: &str = include_str!("../../shaders/ops/max_float.wgsl");
/// `shaders/ops/max_float_subgroup.wgsl`: the subgroup form of max_float.wgsl: a subgroup maximum may drop NaNs, hence the subgroupAny.
pub const OPS_MAX_FLOAT_SUBGROUP_WGSL: &str =
    include_str!("../../shaders/ops/max_float_subgroup.wgsl");
/// `shaders/ops/max_keys.wgsl`: maximum of f32 values as order-preserving i32 keys (reduce_state_keys.wgsl, scan_keys.wgsl).
pub const OPS_MAX_KEYS_WGSL: &str = include_str!("../../shaders/ops/max_keys.wgsl");
/// `shaders/ops/max_subgroup.wgsl`: the subgroup form of max.wgsl.
pub const OPS_MAX_SUBGROUP_WGSL: &str = include_str!("../../shaders/ops/max_subgroup.wgsl");
/// `shaders/ops/mean.wgsl`: mean's finish: the sum, divided by the element count of the whole reduction in a final pass.
pub const OPS_MEAN_WGSL: &str = include_str!("../../shaders/ops/mean.wgsl");
/// `shaders/ops/min.wgsl`: minimum of integers (A is i32 or u32).
pub const OPS_MIN_WGSL: &str = include_str!("../../shaders/ops/min.wgsl");
/// `shaders/ops/min_float.wgsl`: minimum of f32 values. NaN propagates: WGSL's min may drop a NaN operand, so bits are tested
pub const OPS_MIN_FLOAT_WGSL: &str = include_str!("../../shaders/ops/min_float.wgsl");
/// `shaders/ops/min_float_subgroup.wgsl`: the subgroup form of min_float.wgsl: a subgroup minimum may drop NaNs, hence the subgroupAny.
pub const OPS_MIN_FLOAT_SUBGROUP_WGSL: &str =
    include_str!("../../shaders/ops/min_float_subgroup.wgsl");
/// `shaders/ops/min_keys.wgsl`: minimum of f32 values as order-preserving i32 keys (reduce_state_keys.wgsl, scan_keys.wgsl).
pub const OPS_MIN_KEYS_WGSL: &str = include_str!("../../shaders/ops/min_keys.wgsl");
/// `shaders/ops/min_subgroup.wgsl`: the subgroup form of min.wgsl.
pub const OPS_MIN_SUBGROUP_WGSL: &str = include_str!("../../shaders/ops/min_subgroup.wgsl");
/// `shaders/ops/mul.wgsl`: multiplication over the value type A (integers wrap modulo 2^32).
pub const OPS_MUL_WGSL: &str = include_str!("../../shaders/ops/mul.wgsl");
/// `shaders/ops/mul_subgroup.wgsl`: the subgroup form of mul.wgsl.
pub const OPS_MUL_SUBGROUP_WGSL: &str = include_str!("../../shaders/ops/mul_subgroup.wgsl");
/// `shaders/ops/value.wgsl`: the state of sum, prod, min, max and mean along axes: the value itself.
pub const OPS_VALUE_WGSL: &str = include_str!("../../shaders/ops/value.wgsl");
/// `shaders/ops/var.wgsl`: variance (and, with STD, standard deviation): Welford states (count, mean, M2) of f32 values,
pub const OPS_VAR_WGSL: &str = include_str!("../../shaders/ops/var.wgsl");
/// `shaders/types/f32.wgsl`: bounds and comparison keys of f32 values.
pub const TYPES_F32_WGSL: &str = include_str!("../../shaders/types/f32.wgsl");
/// `shaders/types/i32.wgsl`: bounds and comparison keys of i32 values.
pub const TYPES_I32_WGSL: &str = include_str!("../../shaders/types/i32.wgsl");
/// `shaders/types/u32.wgsl`: bounds and comparison keys of u32 values.
pub const TYPES_U32_WGSL: &str = include_str!("../../shaders/types/u32.wgsl");

/// Every shader file by path below `shaders/`, for the tests that check each file.
pub const FILES: &[(&str, &str)] = &[
    ("axis_entry.wgsl", AXIS_ENTRY_WGSL),
    ("axis_load_raw.wgsl", AXIS_LOAD_RAW_WGSL),
    ("axis_load_state.wgsl", AXIS_LOAD_STATE_WGSL),
    ("axis_store_final.wgsl", AXIS_STORE_FINAL_WGSL),
    ("axis_store_state.wgsl", AXIS_STORE_STATE_WGSL),
    ("common.wgsl", COMMON_WGSL),
    ("f16_integer.wgsl", F16_INTEGER_WGSL),
    ("f16_native.wgsl", F16_NATIVE_WGSL),
    ("fill.wgsl", FILL_WGSL),
    ("pack.wgsl", PACK_WGSL),
    ("reduce.wgsl", REDUCE_WGSL),
    ("reduce_axis.wgsl", REDUCE_AXIS_WGSL),
    ("reduce_col_pairs.wgsl", REDUCE_COL_PAIRS_WGSL),
    ("reduce_flat.wgsl", REDUCE_FLAT_WGSL),
    ("reduce_state.wgsl", REDUCE_STATE_WGSL),
    ("reduce_state_keys.wgsl", REDUCE_STATE_KEYS_WGSL),
    ("reduce_subgroup.wgsl", REDUCE_SUBGROUP_WGSL),
    ("reduce_tree.wgsl", REDUCE_TREE_WGSL),
    ("scan.wgsl", SCAN_WGSL),
    ("scan_entry.wgsl", SCAN_ENTRY_WGSL),
    ("scan_entry_subgroup.wgsl", SCAN_ENTRY_SUBGROUP_WGSL),
    ("scan_keys.wgsl", SCAN_KEYS_WGSL),
    ("scan_subgroup_add.wgsl", SCAN_SUBGROUP_ADD_WGSL),
    ("scan_subgroup_shuffle.wgsl", SCAN_SUBGROUP_SHUFFLE_WGSL),
    ("scan_values.wgsl", SCAN_VALUES_WGSL),
    ("scan_vec.wgsl", SCAN_VEC_WGSL),
    ("scan_vec_subgroup.wgsl", SCAN_VEC_SUBGROUP_WGSL),
    ("scan_vec_tree.wgsl", SCAN_VEC_TREE_WGSL),
    ("ops/add.wgsl", OPS_ADD_WGSL),
    ("ops/add_subgroup.wgsl", OPS_ADD_SUBGROUP_WGSL),
    ("ops/arg.wgsl", OPS_ARG_WGSL),
    ("ops/keep.wgsl", OPS_KEEP_WGSL),
    ("ops/max.wgsl", OPS_MAX_WGSL),
    ("ops/max_float.wgsl", OPS_MAX_FLOAT_WGSL),
    ("ops/max_float_subgroup.wgsl", OPS_MAX_FLOAT_SUBGROUP_WGSL),
    ("ops/max_keys.wgsl", OPS_MAX_KEYS_WGSL),
    ("ops/max_subgroup.wgsl", OPS_MAX_SUBGROUP_WGSL),
    ("ops/mean.wgsl", OPS_MEAN_WGSL),
    ("ops/min.wgsl", OPS_MIN_WGSL),
    ("ops/min_float.wgsl", OPS_MIN_FLOAT_WGSL),
    ("ops/min_float_subgroup.wgsl", OPS_MIN_FLOAT_SUBGROUP_WGSL),
    ("ops/min_keys.wgsl", OPS_MIN_KEYS_WGSL),
    ("ops/min_subgroup.wgsl", OPS_MIN_SUBGROUP_WGSL),
    ("ops/mul.wgsl", OPS_MUL_WGSL),
    ("ops/mul_subgroup.wgsl", OPS_MUL_SUBGROUP_WGSL),
    ("ops/value.wgsl", OPS_VALUE_WGSL),
    ("ops/var.wgsl", OPS_VAR_WGSL),
    ("types/f32.wgsl", TYPES_F32_WGSL),
    ("types/i32.wgsl", TYPES_I32_WGSL),
    ("types/u32.wgsl", TYPES_U32_WGSL),
];
