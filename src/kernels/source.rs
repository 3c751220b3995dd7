//! The WGSL files of `shaders/`, compiled into the library (as candle-metal-kernels'
//! `source.rs`), each named once below. A kernel's source is a short generated prelude (type
//! aliases and constants; for scans, the input's bindings with their element types) followed by
//! whole files of this list (see each variant's `source`). The files are grouped by kernel
//! family: `shared/` (NaN tests, float keys, 16-bit conversions, the value types' bounds),
//! `ops/` (each operation's hooks), `reduce/` (the whole-array kernel), `axis/` (the general
//! kernel of reductions along axes, its layouts, loads, stores and maps), `scan/` (the scan
//! passes), `sort/` (the radix sort's and the radix select's passes), `compact/` (compaction, runs and
//! histograms) and `util/` (fill and
//! 16-bit packing). Each file says what it holds in its first lines.

macro_rules! files {
    ($($path:literal,)*) => {
        /// Every file of `shaders/`: its path there and its text.
        pub const FILES: &[(&str, &str)] =
            &[$(($path, include_str!(concat!("../../shaders/", $path))),)*];
    };
}

files! {
    "axis/axis.wgsl",
    "axis/check_offsets.wgsl",
    "axis/col_pairs.wgsl",
    "axis/elem_32.wgsl",
    "axis/elem_b_32.wgsl",
    "axis/elem_b_bf16.wgsl",
    "axis/elem_b_f16.wgsl",
    "axis/elem_bf16.wgsl",
    "axis/elem_f16.wgsl",
    "axis/entry_cols.wgsl",
    "axis/entry_cols_wide.wgsl",
    "axis/entry_rows.wgsl",
    "axis/entry_rows_wide.wgsl",
    "axis/entry_segments.wgsl",
    "axis/flat.wgsl",
    "axis/flat_aminmax.wgsl",
    "axis/flat_arg.wgsl",
    "axis/flat_finish.wgsl",
    "axis/flat_lanes.wgsl",
    "axis/flat_norm2.wgsl",
    "axis/load_dot.wgsl",
    "axis/load_mapped.wgsl",
    "axis/load_raw.wgsl",
    "axis/load_state.wgsl",
    "axis/map_abs.wgsl",
    "axis/map_abs_pow.wgsl",
    "axis/map_identity.wgsl",
    "axis/map_nan_zero.wgsl",
    "axis/map_nonzero.wgsl",
    "axis/pair_bf16.wgsl",
    "axis/pair_f16.wgsl",
    "axis/rows_elements.wgsl",
    "axis/rows_loop.wgsl",
    "axis/rows_pairs_keys.wgsl",
    "axis/rows_pairs_values.wgsl",
    "axis/store_final.wgsl",
    "axis/store_state.wgsl",
    "compact/common.wgsl",
    "compact/compare.wgsl",
    "compact/count.wgsl",
    "compact/elements.wgsl",
    "compact/histogram.wgsl",
    "compact/pad.wgsl",
    "compact/run_lengths.wgsl",
    "compact/scatter.wgsl",
    "compact/total.wgsl",
    "compact/unravel.wgsl",
    "ops/add.wgsl",
    "ops/add_subgroup.wgsl",
    "ops/aminmax.wgsl",
    "ops/arg.wgsl",
    "ops/flag.wgsl",
    "ops/keep.wgsl",
    "ops/logsumexp.wgsl",
    "ops/max.wgsl",
    "ops/max_float.wgsl",
    "ops/max_float_subgroup.wgsl",
    "ops/max_keys.wgsl",
    "ops/max_subgroup.wgsl",
    "ops/mean.wgsl",
    "ops/mean_segments.wgsl",
    "ops/min.wgsl",
    "ops/min_float.wgsl",
    "ops/min_float_subgroup.wgsl",
    "ops/min_keys.wgsl",
    "ops/min_subgroup.wgsl",
    "ops/mul.wgsl",
    "ops/mul_subgroup.wgsl",
    "ops/nan_arg.wgsl",
    "ops/nan_mean.wgsl",
    "ops/nan_pick.wgsl",
    "ops/norm2.wgsl",
    "ops/root_p.wgsl",
    "ops/value.wgsl",
    "ops/var.wgsl",
    "reduce/group_subgroup.wgsl",
    "reduce/group_tree.wgsl",
    "reduce/load_32.wgsl",
    "reduce/load_bf16.wgsl",
    "reduce/load_f16.wgsl",
    "reduce/reduce.wgsl",
    "reduce/state.wgsl",
    "reduce/state_keys.wgsl",
    "reduce/state_keys16.wgsl",
    "scan/common.wgsl",
    "scan/group_subgroup.wgsl",
    "scan/group_tree.wgsl",
    "scan/load_32.wgsl",
    "scan/load_bf16.wgsl",
    "scan/load_f16.wgsl",
    "scan/passes.wgsl",
    "scan/store_scalar.wgsl",
    "scan/store_vec.wgsl",
    "scan/subgroup_add.wgsl",
    "scan/subgroup_shuffle.wgsl",
    "scan/values.wgsl",
    "scan/values_keys.wgsl",
    "shared/common.wgsl",
    "shared/f16_integer.wgsl",
    "shared/f16_native.wgsl",
    "shared/keys16.wgsl",
    "shared/type_f32.wgsl",
    "shared/type_i32.wgsl",
    "shared/type_u32.wgsl",
    "sort/common.wgsl",
    "sort/count.wgsl",
    "sort/count_atomic.wgsl",
    "sort/count_subgroup.wgsl",
    "sort/gather.wgsl",
    "sort/keys_only.wgsl",
    "sort/local.wgsl",
    "sort/narrow.wgsl",
    "sort/scatter.wgsl",
    "sort/scatter_rank.wgsl",
    "sort/scatter_subgroup.wgsl",
    "sort/select_common.wgsl",
    "sort/select_count.wgsl",
    "sort/select_hist.wgsl",
    "sort/select_pick.wgsl",
    "sort/select_scatter.wgsl",
    "sort/subgroup_match.wgsl",
    "sort/values.wgsl",
    "sort/widen.wgsl",
    "util/fill.wgsl",
    "util/pack.wgsl",
}

/// The text of `shaders/<path>`. In a constant (as the crate's `wgsl!` macro uses it), a path that is not in
/// [`FILES`] fails the build.
pub const fn file(path: &str) -> &'static str {
    let mut i = 0;
    while i < FILES.len() {
        if same(FILES[i].0, path) {
            return FILES[i].1;
        }
        i += 1;
    }
    panic!("no such file in shaders/")
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The text of a file of `shaders/`, looked up when the library is built.
macro_rules! wgsl {
    ($path:literal) => {{
        const TEXT: &str = $crate::kernels::source::file($path);
        TEXT
    }};
}
pub(crate) use wgsl;
