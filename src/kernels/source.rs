//! The WGSL files of `shaders/`, compiled into the library (as candle-metal-kernels' `source.rs`).
//! A kernel's source is a short generated prelude (type aliases and constants; for scans, the
//! input's bindings with their element types) followed by whole files from this list (see each
//! variant's `source`).

/// `shaders/axis_load_dot.wgsl`: the first pass of a dot product: the product of the two inputs'
/// elements k (elem_at and elem_b_at, from shaders/loads/; integers wrap).
pub const AXIS_LOAD_DOT_WGSL: &str = include_str!("../../shaders/axis_load_dot.wgsl");
/// `shaders/axis_load_mapped.wgsl`: a first pass through a map: the map's `fn map(x: f32) -> f32`
/// applied to each element value before it becomes a state.
pub const AXIS_LOAD_MAPPED_WGSL: &str = include_str!("../../shaders/axis_load_mapped.wgsl");
/// `shaders/axis_load_raw.wgsl`: a first pass reads input elements (elem_at, from shaders/loads/) and
/// makes states of them (from_elem, from the operation's file).
pub const AXIS_LOAD_RAW_WGSL: &str = include_str!("../../shaders/axis_load_raw.wgsl");
/// `shaders/axis_load_state.wgsl`: a later pass reads the states an earlier pass wrote.
pub const AXIS_LOAD_STATE_WGSL: &str = include_str!("../../shaders/axis_load_state.wgsl");
/// `shaders/axis_store_final.wgsl`: a final pass writes finished results.
pub const AXIS_STORE_FINAL_WGSL: &str = include_str!("../../shaders/axis_store_final.wgsl");
/// `shaders/axis_store_state.wgsl`: a pass that is not the last writes states, or combines them
/// into the states already there (pieces of one long reduced axis).
pub const AXIS_STORE_STATE_WGSL: &str = include_str!("../../shaders/axis_store_state.wgsl");
/// `shaders/check_offsets.wgsl`: the offsets check of a segmented reduction.
pub const CHECK_OFFSETS_WGSL: &str = include_str!("../../shaders/check_offsets.wgsl");
/// `shaders/common.wgsl`: helpers shared by every kernel: NaN tests, exact float ordering, and
/// 16-bit float conversions (no device feature needed: 16-bit values travel in u32 words; f16
/// widening is added per device, see F16Widening in src/kernels.rs).
pub const COMMON_WGSL: &str = include_str!("../../shaders/common.wgsl");
/// `shaders/entries/axis_cols.wgsl`: the entry of the columns layout of reduce_axis.wgsl.
pub const ENTRIES_AXIS_COLS_WGSL: &str = include_str!("../../shaders/entries/axis_cols.wgsl");
/// `shaders/entries/axis_cols_wide.wgsl`: the entry of the wide columns layout of reduce_axis.wgsl.
pub const ENTRIES_AXIS_COLS_WIDE_WGSL: &str =
    include_str!("../../shaders/entries/axis_cols_wide.wgsl");
/// `shaders/entries/axis_segments.wgsl`: segments layout of reduce_axis.wgsl: output s reduces
/// elements `[offsets[s], offsets[s + 1])` of the values.
pub const ENTRIES_AXIS_SEGMENTS_WGSL: &str =
    include_str!("../../shaders/entries/axis_segments.wgsl");
/// `shaders/entries/axis_rows.wgsl`: the entry of the rows layouts (rows and row pairs): `lanes`
/// threads per row, each thread's part from row_part (shaders/rows/).
pub const ENTRIES_AXIS_ROWS_WGSL: &str = include_str!("../../shaders/entries/axis_rows.wgsl");
/// `shaders/entries/axis_rows_wide.wgsl`: the entry of the wide rows layout of reduce_axis.wgsl.
pub const ENTRIES_AXIS_ROWS_WIDE_WGSL: &str =
    include_str!("../../shaders/entries/axis_rows_wide.wgsl");
/// `shaders/entries/scan_downsweep.wgsl`: reduce-then-scan, last pass: each tile scanned from its
/// scanned total (called by scan_entry*.wgsl).
pub const ENTRIES_SCAN_DOWNSWEEP_WGSL: &str =
    include_str!("../../shaders/entries/scan_downsweep.wgsl");
/// `shaders/entries/scan_fused.wgsl`: reduce-then-scan of few tiles, last pass: each tile scanned
/// from the unscanned totals of the tiles before it (called by scan_entry*.wgsl).
pub const ENTRIES_SCAN_FUSED_WGSL: &str = include_str!("../../shaders/entries/scan_fused.wgsl");
/// `shaders/entries/scan_lookback.wgsl`: the single-pass decoupled look-back with fallback (called
/// by scan_entry*.wgsl).
pub const ENTRIES_SCAN_LOOKBACK_WGSL: &str =
    include_str!("../../shaders/entries/scan_lookback.wgsl");
/// `shaders/entries/scan_reduce.wgsl`: reduce-then-scan, first pass: each tile's total (called by
/// scan_entry*.wgsl).
pub const ENTRIES_SCAN_REDUCE_WGSL: &str = include_str!("../../shaders/entries/scan_reduce.wgsl");
/// `shaders/entries/scan_serial.wgsl`: short rows, one invocation per row (called by
/// scan_entry*.wgsl).
pub const ENTRIES_SCAN_SERIAL_WGSL: &str = include_str!("../../shaders/entries/scan_serial.wgsl");
/// `shaders/entries/scan_tile.wgsl`: a scan pass over rows of one tile each, no carry (called by
/// scan_entry*.wgsl).
pub const ENTRIES_SCAN_TILE_WGSL: &str = include_str!("../../shaders/entries/scan_tile.wgsl");
/// `shaders/f16_integer.wgsl`: f16 widening in integer arithmetic (added to every kernel's source
/// on devices without WGSL's unpack2x16float: some GL devices lack the downlevel capability; see
/// F16Widening in src/kernels.rs).
pub const F16_INTEGER_WGSL: &str = include_str!("../../shaders/f16_integer.wgsl");
/// `shaders/f16_native.wgsl`: f16 widening with WGSL's unpack2x16float (added to every kernel's
/// source where the device has it: see F16Widening in src/kernels.rs).
pub const F16_NATIVE_WGSL: &str = include_str!("../../shaders/f16_native.wgsl");
/// `shaders/fill.wgsl`: sets `n` u32 words of dst to `value` (clears look-back status before a
/// single-pass scan).
pub const FILL_WGSL: &str = include_str!("../../shaders/fill.wgsl");
/// `shaders/flat/aminmax.wgsl`: aminmax in the flat first pass (reduce_flat.wgsl): per lane, the
/// least and the greatest order-preserving integer key (a NaN's key lies outside -inf..+inf's).
pub const FLAT_AMINMAX_WGSL: &str = include_str!("../../shaders/flat/aminmax.wgsl");
/// `shaders/flat/finish.wgsl`: the flat first pass over one row finished in one pass: each
/// workgroup publishes its state, the last to finish combines them (recomputing any not visible).
pub const FLAT_FINISH_WGSL: &str = include_str!("../../shaders/flat/finish.wgsl");
/// `shaders/flat/no_finish.wgsl`: the stub of flat_finish for the flat passes that do not take it.
pub const FLAT_NO_FINISH_WGSL: &str = include_str!("../../shaders/flat/no_finish.wgsl");
/// `shaders/flat/lanes.wgsl`: operations whose state is one value (ops/value.wgsl: nansum, the
/// 1-norm, any, all, count_nonzero) in the flat first pass (reduce_flat.wgsl): a thread's running
/// value is one state per lane of a vec4 word, each the operation's own from_elem and combine,
/// so the results are those of the general layout's elements in another order.
pub const FLAT_LANES_WGSL: &str = include_str!("../../shaders/flat/lanes.wgsl");
/// `shaders/flat/norm2.wgsl`: the 2-norm in the flat first pass (reduce_flat.wgsl): ops/norm2.wgsl's
/// three sums of squares, the middle one kept per lane of a vec4 word.
pub const FLAT_NORM2_WGSL: &str = include_str!("../../shaders/flat/norm2.wgsl");
/// `shaders/flat/arg.wgsl`: argmin/argmax in the flat first pass (reduce_flat.wgsl): per lane,
/// the best order-preserving integer key seen and its word index.
pub const FLAT_ARG_WGSL: &str = include_str!("../../shaders/flat/arg.wgsl");
/// `shaders/keys16.wgsl`: 16-bit order-preserving keys of the two halves of u32 words of f16 or
/// bf16 input, both halves at once in integer arithmetic.
pub const KEYS16_WGSL: &str = include_str!("../../shaders/keys16.wgsl");
/// `shaders/loads/axis_32.wgsl`: a 32-bit input element of the general kernel, as a value.
pub const LOADS_AXIS_32_WGSL: &str = include_str!("../../shaders/loads/axis_32.wgsl");
/// `shaders/loads/axis_bf16.wgsl`: a bf16 input element of the general kernel (two to a u32 word),
/// widened to f32.
pub const LOADS_AXIS_BF16_WGSL: &str = include_str!("../../shaders/loads/axis_bf16.wgsl");
/// `shaders/loads/axis_bf16_pairs.wgsl`: half h (0 or 1) of a word of bf16 input, for the column-
/// pairs layout.
pub const LOADS_AXIS_BF16_PAIRS_WGSL: &str =
    include_str!("../../shaders/loads/axis_bf16_pairs.wgsl");
/// `shaders/loads/axis_f16.wgsl`: an f16 input element of the general kernel (two to a u32 word),
/// widened to f32.
pub const LOADS_AXIS_F16_WGSL: &str = include_str!("../../shaders/loads/axis_f16.wgsl");
/// `shaders/loads/axis_f16_pairs.wgsl`: half h (0 or 1) of a word of f16 input, for the column-
/// pairs layout.
pub const LOADS_AXIS_F16_PAIRS_WGSL: &str = include_str!("../../shaders/loads/axis_f16_pairs.wgsl");
/// `shaders/loads/dot_32.wgsl`: the second input of a dot product (same element type and window as
/// the first).
pub const LOADS_DOT_32_WGSL: &str = include_str!("../../shaders/loads/dot_32.wgsl");
/// `shaders/loads/dot_bf16.wgsl`: the second input of a dot product (same element type and window
/// as the first).
pub const LOADS_DOT_BF16_WGSL: &str = include_str!("../../shaders/loads/dot_bf16.wgsl");
/// `shaders/loads/dot_f16.wgsl`: the second input of a dot product (same element type and window as
/// the first).
pub const LOADS_DOT_F16_WGSL: &str = include_str!("../../shaders/loads/dot_f16.wgsl");
/// `shaders/loads/pack_bf16.wgsl`: the packing kernel's conversion to bf16 bits (round to nearest
/// even).
pub const LOADS_PACK_BF16_WGSL: &str = include_str!("../../shaders/loads/pack_bf16.wgsl");
/// `shaders/loads/pack_f16.wgsl`: the packing kernel's conversion to f16 bits (round to nearest
/// even).
pub const LOADS_PACK_F16_WGSL: &str = include_str!("../../shaders/loads/pack_f16.wgsl");
/// `shaders/loads/reduce_32.wgsl`: 32-bit input of the whole-array kernel: four elements per vec4
/// word.
pub const LOADS_REDUCE_32_WGSL: &str = include_str!("../../shaders/loads/reduce_32.wgsl");
/// `shaders/loads/reduce_bf16.wgsl`: bf16 input of the whole-array kernel: eight elements per vec4
/// word, widened to f32.
pub const LOADS_REDUCE_BF16_WGSL: &str = include_str!("../../shaders/loads/reduce_bf16.wgsl");
/// `shaders/loads/reduce_f16.wgsl`: f16 input of the whole-array kernel: eight elements per vec4
/// word, widened to f32.
pub const LOADS_REDUCE_F16_WGSL: &str = include_str!("../../shaders/loads/reduce_f16.wgsl");
/// `shaders/loads/scan_32.wgsl`: 32-bit input of a scan pass (bindings src_vec and src in the
/// prelude): slots of four elements as one vec4 load.
pub const LOADS_SCAN_32_WGSL: &str = include_str!("../../shaders/loads/scan_32.wgsl");
/// `shaders/loads/scan_bf16.wgsl`: bf16 input of a scan pass (two to a u32 word; bindings in the
/// prelude): slots of four elements as one `vec2<u32>` load.
pub const LOADS_SCAN_BF16_WGSL: &str = include_str!("../../shaders/loads/scan_bf16.wgsl");
/// `shaders/loads/scan_f16.wgsl`: f16 input of a scan pass (two to a u32 word; bindings in the
/// prelude): slots of four elements as one `vec2<u32>` load.
pub const LOADS_SCAN_F16_WGSL: &str = include_str!("../../shaders/loads/scan_f16.wgsl");
/// `shaders/loads/scan_store_scalar.wgsl`: scan output element by element (tile totals, or a buffer
/// not padded to 16 bytes).
pub const LOADS_SCAN_STORE_SCALAR_WGSL: &str =
    include_str!("../../shaders/loads/scan_store_scalar.wgsl");
/// `shaders/loads/scan_store_vec.wgsl`: scan output as vec4 slots (the buffer is padded to 16
/// bytes).
pub const LOADS_SCAN_STORE_VEC_WGSL: &str = include_str!("../../shaders/loads/scan_store_vec.wgsl");
/// `shaders/loads/scan_values.wgsl`: a scan's loads in the values it combines (V: see
/// scan_values.wgsl and scan_keys.wgsl).
pub const LOADS_SCAN_VALUES_WGSL: &str = include_str!("../../shaders/loads/scan_values.wgsl");
/// `shaders/maps/abs.wgsl`: the 1-, inf- and -inf-norms: absolute values (a NaN stays NaN).
pub const MAPS_ABS_WGSL: &str = include_str!("../../shaders/maps/abs.wgsl");
/// `shaders/maps/abs_pow.wgsl`: the p-norm: |x|^p for the p of the parameters (0 stays 0: pow is
/// exp2(p * log2(x))).
pub const MAPS_ABS_POW_WGSL: &str = include_str!("../../shaders/maps/abs_pow.wgsl");
/// `shaders/maps/identity.wgsl`: an element's state is its value.
pub const MAPS_IDENTITY_WGSL: &str = include_str!("../../shaders/maps/identity.wgsl");
/// `shaders/maps/nan_zero.wgsl`: nansum: a NaN element adds nothing.
pub const MAPS_NAN_ZERO_WGSL: &str = include_str!("../../shaders/maps/nan_zero.wgsl");
/// `shaders/maps/nonzero.wgsl`: any, all, count_nonzero and the 0-norm: 1 for a non-zero element,
/// else 0.
pub const MAPS_NONZERO_WGSL: &str = include_str!("../../shaders/maps/nonzero.wgsl");
/// `shaders/ops/add.wgsl`: addition over the value type A (sums, means and running sums; integers
/// wrap modulo 2^32).
pub const OPS_ADD_WGSL: &str = include_str!("../../shaders/ops/add.wgsl");
/// `shaders/ops/add_subgroup.wgsl`: the subgroup form of add.wgsl.
pub const OPS_ADD_SUBGROUP_WGSL: &str = include_str!("../../shaders/ops/add_subgroup.wgsl");
/// `shaders/ops/aminmax.wgsl`: aminmax: states (minimum, maximum) in one pass, with the value
/// type's pick_lo and pick_hi (shaders/types/: NaN wins for floats).
pub const OPS_AMINMAX_WGSL: &str = include_str!("../../shaders/ops/aminmax.wgsl");
/// `shaders/ops/arg.wgsl`: argmin and argmax (the prelude sets `const ARGMAX: bool`): states
/// (value, index).
pub const OPS_ARG_WGSL: &str = include_str!("../../shaders/ops/arg.wgsl");
/// `shaders/ops/flag.wgsl`: all's finish: 1 or 0.
pub const OPS_FLAG_WGSL: &str = include_str!("../../shaders/ops/flag.wgsl");
/// `shaders/ops/keep.wgsl`: the finish of sum, prod, min and max: the combined value itself.
pub const OPS_KEEP_WGSL: &str = include_str!("../../shaders/ops/keep.wgsl");
/// `shaders/ops/logsumexp.wgsl`: logsumexp in one pass: states (m, s) standing for s * exp(m), m
/// the largest element seen.
pub const OPS_LOGSUMEXP_WGSL: &str = include_str!("../../shaders/ops/logsumexp.wgsl");
/// `shaders/ops/max.wgsl`: maximum of integers (A is i32 or u32).
pub const OPS_MAX_WGSL: &str = include_str!("../../shaders/ops/max.wgsl");
/// `shaders/ops/max_float.wgsl`: maximum of f32 values; NaN propagates (see min_float.wgsl).
pub const OPS_MAX_FLOAT_WGSL: &str = include_str!("../../shaders/ops/max_float.wgsl");
/// `shaders/ops/max_float_subgroup.wgsl`: the subgroup form of max_float.wgsl: a subgroup maximum
/// may drop NaNs, hence the subgroupAny.
pub const OPS_MAX_FLOAT_SUBGROUP_WGSL: &str =
    include_str!("../../shaders/ops/max_float_subgroup.wgsl");
/// `shaders/ops/max_keys.wgsl`: maximum of f32 values as order-preserving i32 keys
/// (reduce_state_keys.wgsl, scan_keys.wgsl).
pub const OPS_MAX_KEYS_WGSL: &str = include_str!("../../shaders/ops/max_keys.wgsl");
/// `shaders/ops/max_subgroup.wgsl`: the subgroup form of max.wgsl.
pub const OPS_MAX_SUBGROUP_WGSL: &str = include_str!("../../shaders/ops/max_subgroup.wgsl");
/// `shaders/ops/mean.wgsl`: mean's finish: the sum, divided by the element count of the whole
/// reduction in a final pass.
pub const OPS_MEAN_WGSL: &str = include_str!("../../shaders/ops/mean.wgsl");
/// `shaders/ops/mean_segments.wgsl`: mean's finish over segments: the sum divided by the segment's
/// length.
pub const OPS_MEAN_SEGMENTS_WGSL: &str = include_str!("../../shaders/ops/mean_segments.wgsl");
/// `shaders/ops/min.wgsl`: minimum of integers (A is i32 or u32).
pub const OPS_MIN_WGSL: &str = include_str!("../../shaders/ops/min.wgsl");
/// `shaders/ops/min_float.wgsl`: minimum of f32 values.
pub const OPS_MIN_FLOAT_WGSL: &str = include_str!("../../shaders/ops/min_float.wgsl");
/// `shaders/ops/min_float_subgroup.wgsl`: the subgroup form of min_float.wgsl: a subgroup minimum
/// may drop NaNs, hence the subgroupAny.
pub const OPS_MIN_FLOAT_SUBGROUP_WGSL: &str =
    include_str!("../../shaders/ops/min_float_subgroup.wgsl");
/// `shaders/ops/min_keys.wgsl`: minimum of f32 values as order-preserving i32 keys
/// (reduce_state_keys.wgsl, scan_keys.wgsl).
pub const OPS_MIN_KEYS_WGSL: &str = include_str!("../../shaders/ops/min_keys.wgsl");
/// `shaders/ops/min_subgroup.wgsl`: the subgroup form of min.wgsl.
pub const OPS_MIN_SUBGROUP_WGSL: &str = include_str!("../../shaders/ops/min_subgroup.wgsl");
/// `shaders/ops/mul.wgsl`: multiplication over the value type A (integers wrap modulo 2^32).
pub const OPS_MUL_WGSL: &str = include_str!("../../shaders/ops/mul.wgsl");
/// `shaders/ops/mul_subgroup.wgsl`: the subgroup form of mul.wgsl.
pub const OPS_MUL_SUBGROUP_WGSL: &str = include_str!("../../shaders/ops/mul_subgroup.wgsl");
/// `shaders/ops/nan_arg.wgsl`: nanargmin and nanargmax (the prelude sets `const ARGMAX: bool`):
/// states (value, index) where a NaN loses to every number; among NaNs the lowest index wins, so
/// the identity (NaN, MAX) loses to everything.
pub const OPS_NAN_ARG_WGSL: &str = include_str!("../../shaders/ops/nan_arg.wgsl");
/// `shaders/ops/nan_mean.wgsl`: nanmean: states (sum, count) of the elements that are not NaN; NaN
/// where the count is 0.
pub const OPS_NAN_MEAN_WGSL: &str = include_str!("../../shaders/ops/nan_mean.wgsl");
/// `shaders/ops/nan_pick.wgsl`: nanmin and nanmax (the prelude sets `const PICK_MAX: bool`) of f32
/// values: a NaN operand loses to any other; the identity is NaN, so a slice of NaN only stays NaN.
pub const OPS_NAN_PICK_WGSL: &str = include_str!("../../shaders/ops/nan_pick.wgsl");
/// `shaders/ops/norm2.wgsl`: the 2-norm with scaling by Blue's three accumulators (small, middle
/// and big squares, the outer two scaled by constant powers of two), as LAPACK's nrm2.
pub const OPS_NORM2_WGSL: &str = include_str!("../../shaders/ops/norm2.wgsl");
/// `shaders/ops/root_p.wgsl`: the p-norm's finish: the p-th root of the sum of |x|^p, in a final
/// pass.
pub const OPS_ROOT_P_WGSL: &str = include_str!("../../shaders/ops/root_p.wgsl");
/// `shaders/ops/value.wgsl`: the state of the operations whose state is one value of the value
/// type A.
pub const OPS_VALUE_WGSL: &str = include_str!("../../shaders/ops/value.wgsl");
/// `shaders/ops/var.wgsl`: variance (and, with STD, standard deviation): Welford states (count,
/// mean, M2) of f32 values, combined with Chan et al.'s parallel formula.
pub const OPS_VAR_WGSL: &str = include_str!("../../shaders/ops/var.wgsl");
/// `shaders/pack.wgsl`: converts `n` f32 values to 16-bit floats packed two to a u32 word (element
/// 2w in the low half of word w).
pub const PACK_WGSL: &str = include_str!("../../shaders/pack.wgsl");
/// `shaders/reduce.wgsl`: whole-array reduction: the per-thread part, shared by both workgroup
/// strategies.
pub const REDUCE_WGSL: &str = include_str!("../../shaders/reduce.wgsl");
/// `shaders/reduce_axis.wgsl`: general reduction of an input viewed as [outer, r, inner] over r,
/// writing [outer, splits, inner] values (states for a later pass, or final results when splits ==
/// 1).
pub const REDUCE_AXIS_WGSL: &str = include_str!("../../shaders/reduce_axis.wgsl");
/// `shaders/reduce_col_pairs.wgsl`: column pairs layout (added to the source of reduce_axis.wgsl
/// for that layout only; the prelude defines `struct Pair { a: S, b: S }` and `fn load2(k: u32, j:
/// u32) -> Pair`, the two elements of the u32 word holding elements k and k + 1, k even).
pub const REDUCE_COL_PAIRS_WGSL: &str = include_str!("../../shaders/reduce_col_pairs.wgsl");
/// `shaders/reduce_flat.wgsl`: flat layout: the first pass of argmin/argmax, aminmax, the 2-norm
/// and the operations whose state is one value (shaders/flat/lanes.wgsl) over f32 rows of whole
/// vec4 words (added to the source of reduce_axis.wgsl for that layout only, after the
/// operation's flat file in shaders/flat/).
pub const REDUCE_FLAT_WGSL: &str = include_str!("../../shaders/reduce_flat.wgsl");
/// `shaders/reduce_state.wgsl`: a thread's running state in the whole-array kernel (reduce.wgsl):
/// four accumulators, one per vec4 lane, combined with combine4.
pub const REDUCE_STATE_WGSL: &str = include_str!("../../shaders/reduce_state.wgsl");
/// `shaders/reduce_state_keys.wgsl`: a thread's running state for f32 min/max in the whole-array
/// kernel: order-preserving signed integer keys (`i ^ ((i >> 31) & 0x7fffffff)`, its own inverse:
/// three integer operations and a min or max per element) plus the largest magnitude bits seen,
/// which exceed +inf's exactly when a NaN was read: a third of the work of comparing exact float
/// keys element by element, which made these passes ALU-bound on the H200. Keys order -0.0 below
/// +0.0, so a thread's min/max of zeros may be either zero (both are exact answers).
pub const REDUCE_STATE_KEYS_WGSL: &str = include_str!("../../shaders/reduce_state_keys.wgsl");
/// `shaders/reduce_state_keys16.wgsl`: a thread's running state for min/max of f16 and bf16
/// input in the whole-array kernel: 16-bit keys, the low and high halves apart.
pub const REDUCE_STATE_KEYS16_WGSL: &str = include_str!("../../shaders/reduce_state_keys16.wgsl");
/// `shaders/reduce_subgroup.wgsl`: workgroup step with subgroup operations.
pub const REDUCE_SUBGROUP_WGSL: &str = include_str!("../../shaders/reduce_subgroup.wgsl");
/// `shaders/reduce_tree.wgsl`: workgroup step without subgroup operations: a shared-memory tree.
pub const REDUCE_TREE_WGSL: &str = include_str!("../../shaders/reduce_tree.wgsl");
/// `shaders/rows/elements.wgsl`: the rows layout's reads (rows/loop.wgsl): one element (or one
/// state of an earlier pass) at each row index.
pub const ROWS_ELEMENTS_WGSL: &str = include_str!("../../shaders/rows/elements.wgsl");
/// `shaders/rows/loop.wgsl`: a thread's part of a row in the rows and row pairs layouts, through
/// the layout's row_load, four reads in flight.
pub const ROWS_LOOP_WGSL: &str = include_str!("../../shaders/rows/loop.wgsl");
/// `shaders/rows/pairs_keys.wgsl`: a thread's part of a row in the row pairs layout for min, max,
/// argmin and argmax: 16-bit order-preserving keys, both halves of a word at once in integer
/// arithmetic, only the winner widened.
pub const ROWS_PAIRS_KEYS_WGSL: &str = include_str!("../../shaders/rows/pairs_keys.wgsl");
/// `shaders/rows/pairs_values.wgsl`: the row pairs layout's reads (rows/loop.wgsl): both elements
/// of a u32 word of 16-bit input by one load.
pub const ROWS_PAIRS_VALUES_WGSL: &str = include_str!("../../shaders/rows/pairs_values.wgsl");
/// `shaders/scan.wgsl`: prefix scans (inclusive and exclusive; add, min, max) of rows, tile by
/// tile: what every scan pass shares (parameters, tile geometry, the decoupled look-back).
pub const SCAN_WGSL: &str = include_str!("../../shaders/scan.wgsl");
/// `shaders/scan_entry.wgsl`: the entry of a scan pass with the shared-memory group step;
/// `run_pass` comes from the pass's file in shaders/entries/.
pub const SCAN_ENTRY_WGSL: &str = include_str!("../../shaders/scan_entry.wgsl");
/// `shaders/scan_entry_subgroup.wgsl`: the entry of a scan pass with the subgroup group step (see
/// scan_entry.wgsl).
pub const SCAN_ENTRY_SUBGROUP_WGSL: &str = include_str!("../../shaders/scan_entry_subgroup.wgsl");
/// `shaders/scan_keys.wgsl`: float min/max scans combine order-preserving i32 keys (`i ^ ((i >> 31)
/// & 0x7fffffff)`, its own inverse, as reduce_state_keys.wgsl): one integer min/max per combine
/// instead of two exact float keys and two NaN tests, which made these scans ALU-bound.
pub const SCAN_KEYS_WGSL: &str = include_str!("../../shaders/scan_keys.wgsl");
/// `shaders/scan_subgroup_add.wgsl`: inclusive subgroup scan of a sum (scan_vec_subgroup.wgsl).
pub const SCAN_SUBGROUP_ADD_WGSL: &str = include_str!("../../shaders/scan_subgroup_add.wgsl");
/// `shaders/scan_subgroup_shuffle.wgsl`: inclusive subgroup scan of min/max by shuffles
/// (scan_vec_subgroup.wgsl); `size` is the subgroup's size, whatever the device picked.
pub const SCAN_SUBGROUP_SHUFFLE_WGSL: &str =
    include_str!("../../shaders/scan_subgroup_shuffle.wgsl");
/// `shaders/scan_values.wgsl`: scans that combine the values themselves (V is R): sums, and integer
/// min/max.
pub const SCAN_VALUES_WGSL: &str = include_str!("../../shaders/scan_values.wgsl");
/// `shaders/scan_vec.wgsl`: the scan passes.
pub const SCAN_VEC_WGSL: &str = include_str!("../../shaders/scan_vec.wgsl");
/// `shaders/scan_vec_subgroup.wgsl`: group_scan4 with subgroup operations: a group is one subgroup,
/// of whatever size the device picks (4..128; nothing assumes a fixed size).
pub const SCAN_VEC_SUBGROUP_WGSL: &str = include_str!("../../shaders/scan_vec_subgroup.wgsl");
/// `shaders/scan_vec_tree.wgsl`: group_scan4 without subgroup operations: one group of WG lanes
/// (the workgroup), the four chunks scanned at once as a vec4, Hillis-Steele in shared memory.
pub const SCAN_VEC_TREE_WGSL: &str = include_str!("../../shaders/scan_vec_tree.wgsl");
/// `shaders/types/f32.wgsl`: bounds and comparison keys of f32 values.
pub const TYPES_F32_WGSL: &str = include_str!("../../shaders/types/f32.wgsl");
/// `shaders/types/i32.wgsl`: bounds and comparison keys of i32 values.
pub const TYPES_I32_WGSL: &str = include_str!("../../shaders/types/i32.wgsl");
/// `shaders/types/u32.wgsl`: bounds and comparison keys of u32 values.
pub const TYPES_U32_WGSL: &str = include_str!("../../shaders/types/u32.wgsl");

/// Every shader file by path below `shaders/`, for the tests that check each file.
pub const FILES: &[(&str, &str)] = &[
    ("axis_load_dot.wgsl", AXIS_LOAD_DOT_WGSL),
    ("axis_load_mapped.wgsl", AXIS_LOAD_MAPPED_WGSL),
    ("axis_load_raw.wgsl", AXIS_LOAD_RAW_WGSL),
    ("axis_load_state.wgsl", AXIS_LOAD_STATE_WGSL),
    ("axis_store_final.wgsl", AXIS_STORE_FINAL_WGSL),
    ("axis_store_state.wgsl", AXIS_STORE_STATE_WGSL),
    ("check_offsets.wgsl", CHECK_OFFSETS_WGSL),
    ("common.wgsl", COMMON_WGSL),
    ("entries/axis_cols.wgsl", ENTRIES_AXIS_COLS_WGSL),
    ("entries/axis_cols_wide.wgsl", ENTRIES_AXIS_COLS_WIDE_WGSL),
    ("entries/axis_rows.wgsl", ENTRIES_AXIS_ROWS_WGSL),
    ("entries/axis_segments.wgsl", ENTRIES_AXIS_SEGMENTS_WGSL),
    ("entries/axis_rows_wide.wgsl", ENTRIES_AXIS_ROWS_WIDE_WGSL),
    ("entries/scan_downsweep.wgsl", ENTRIES_SCAN_DOWNSWEEP_WGSL),
    ("entries/scan_fused.wgsl", ENTRIES_SCAN_FUSED_WGSL),
    ("entries/scan_lookback.wgsl", ENTRIES_SCAN_LOOKBACK_WGSL),
    ("entries/scan_reduce.wgsl", ENTRIES_SCAN_REDUCE_WGSL),
    ("entries/scan_serial.wgsl", ENTRIES_SCAN_SERIAL_WGSL),
    ("entries/scan_tile.wgsl", ENTRIES_SCAN_TILE_WGSL),
    ("f16_integer.wgsl", F16_INTEGER_WGSL),
    ("f16_native.wgsl", F16_NATIVE_WGSL),
    ("fill.wgsl", FILL_WGSL),
    ("flat/aminmax.wgsl", FLAT_AMINMAX_WGSL),
    ("flat/arg.wgsl", FLAT_ARG_WGSL),
    ("flat/finish.wgsl", FLAT_FINISH_WGSL),
    ("flat/lanes.wgsl", FLAT_LANES_WGSL),
    ("flat/no_finish.wgsl", FLAT_NO_FINISH_WGSL),
    ("flat/norm2.wgsl", FLAT_NORM2_WGSL),
    ("keys16.wgsl", KEYS16_WGSL),
    ("loads/axis_32.wgsl", LOADS_AXIS_32_WGSL),
    ("loads/axis_bf16.wgsl", LOADS_AXIS_BF16_WGSL),
    ("loads/axis_bf16_pairs.wgsl", LOADS_AXIS_BF16_PAIRS_WGSL),
    ("loads/axis_f16.wgsl", LOADS_AXIS_F16_WGSL),
    ("loads/axis_f16_pairs.wgsl", LOADS_AXIS_F16_PAIRS_WGSL),
    ("loads/dot_32.wgsl", LOADS_DOT_32_WGSL),
    ("loads/dot_bf16.wgsl", LOADS_DOT_BF16_WGSL),
    ("loads/dot_f16.wgsl", LOADS_DOT_F16_WGSL),
    ("loads/pack_bf16.wgsl", LOADS_PACK_BF16_WGSL),
    ("loads/pack_f16.wgsl", LOADS_PACK_F16_WGSL),
    ("loads/reduce_32.wgsl", LOADS_REDUCE_32_WGSL),
    ("loads/reduce_bf16.wgsl", LOADS_REDUCE_BF16_WGSL),
    ("loads/reduce_f16.wgsl", LOADS_REDUCE_F16_WGSL),
    ("loads/scan_32.wgsl", LOADS_SCAN_32_WGSL),
    ("loads/scan_bf16.wgsl", LOADS_SCAN_BF16_WGSL),
    ("loads/scan_f16.wgsl", LOADS_SCAN_F16_WGSL),
    ("loads/scan_store_scalar.wgsl", LOADS_SCAN_STORE_SCALAR_WGSL),
    ("loads/scan_store_vec.wgsl", LOADS_SCAN_STORE_VEC_WGSL),
    ("loads/scan_values.wgsl", LOADS_SCAN_VALUES_WGSL),
    ("maps/abs.wgsl", MAPS_ABS_WGSL),
    ("maps/abs_pow.wgsl", MAPS_ABS_POW_WGSL),
    ("maps/identity.wgsl", MAPS_IDENTITY_WGSL),
    ("maps/nan_zero.wgsl", MAPS_NAN_ZERO_WGSL),
    ("maps/nonzero.wgsl", MAPS_NONZERO_WGSL),
    ("ops/add.wgsl", OPS_ADD_WGSL),
    ("ops/add_subgroup.wgsl", OPS_ADD_SUBGROUP_WGSL),
    ("ops/aminmax.wgsl", OPS_AMINMAX_WGSL),
    ("ops/arg.wgsl", OPS_ARG_WGSL),
    ("ops/flag.wgsl", OPS_FLAG_WGSL),
    ("ops/keep.wgsl", OPS_KEEP_WGSL),
    ("ops/logsumexp.wgsl", OPS_LOGSUMEXP_WGSL),
    ("ops/max.wgsl", OPS_MAX_WGSL),
    ("ops/max_float.wgsl", OPS_MAX_FLOAT_WGSL),
    ("ops/max_float_subgroup.wgsl", OPS_MAX_FLOAT_SUBGROUP_WGSL),
    ("ops/max_keys.wgsl", OPS_MAX_KEYS_WGSL),
    ("ops/max_subgroup.wgsl", OPS_MAX_SUBGROUP_WGSL),
    ("ops/mean.wgsl", OPS_MEAN_WGSL),
    ("ops/mean_segments.wgsl", OPS_MEAN_SEGMENTS_WGSL),
    ("ops/min.wgsl", OPS_MIN_WGSL),
    ("ops/min_float.wgsl", OPS_MIN_FLOAT_WGSL),
    ("ops/min_float_subgroup.wgsl", OPS_MIN_FLOAT_SUBGROUP_WGSL),
    ("ops/min_keys.wgsl", OPS_MIN_KEYS_WGSL),
    ("ops/min_subgroup.wgsl", OPS_MIN_SUBGROUP_WGSL),
    ("ops/mul.wgsl", OPS_MUL_WGSL),
    ("ops/mul_subgroup.wgsl", OPS_MUL_SUBGROUP_WGSL),
    ("ops/nan_arg.wgsl", OPS_NAN_ARG_WGSL),
    ("ops/nan_mean.wgsl", OPS_NAN_MEAN_WGSL),
    ("ops/nan_pick.wgsl", OPS_NAN_PICK_WGSL),
    ("ops/norm2.wgsl", OPS_NORM2_WGSL),
    ("ops/root_p.wgsl", OPS_ROOT_P_WGSL),
    ("ops/value.wgsl", OPS_VALUE_WGSL),
    ("ops/var.wgsl", OPS_VAR_WGSL),
    ("pack.wgsl", PACK_WGSL),
    ("reduce.wgsl", REDUCE_WGSL),
    ("reduce_axis.wgsl", REDUCE_AXIS_WGSL),
    ("reduce_col_pairs.wgsl", REDUCE_COL_PAIRS_WGSL),
    ("reduce_flat.wgsl", REDUCE_FLAT_WGSL),
    ("reduce_state.wgsl", REDUCE_STATE_WGSL),
    ("reduce_state_keys.wgsl", REDUCE_STATE_KEYS_WGSL),
    ("reduce_state_keys16.wgsl", REDUCE_STATE_KEYS16_WGSL),
    ("reduce_subgroup.wgsl", REDUCE_SUBGROUP_WGSL),
    ("reduce_tree.wgsl", REDUCE_TREE_WGSL),
    ("rows/elements.wgsl", ROWS_ELEMENTS_WGSL),
    ("rows/loop.wgsl", ROWS_LOOP_WGSL),
    ("rows/pairs_keys.wgsl", ROWS_PAIRS_KEYS_WGSL),
    ("rows/pairs_values.wgsl", ROWS_PAIRS_VALUES_WGSL),
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
    ("types/f32.wgsl", TYPES_F32_WGSL),
    ("types/i32.wgsl", TYPES_I32_WGSL),
    ("types/u32.wgsl", TYPES_U32_WGSL),
];
