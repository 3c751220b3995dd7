//! The radix sort's passes: per digit of 8 bits, a count of each tile's digits, an exclusive
//! scan of the counts (a scan kernel), and a stable scatter that ranks each tile's keys, puts
//! them in digit order in workgroup memory and writes each digit's run in order; 16-bit keys
//! are widened to a word each before and packed back after. The radix select of top-k and kthvalue shares the key
//! order and the parameters.

use super::source::wgsl;

/// Keys sorted a tile at a time: 2,048 keys per workgroup (`TILE` in shaders/sort/common.wgsl).
pub const SORT_TILE: usize = 2048;

/// The subgroup ranking of the scatter needs subgroups of this many invocations or more (its
/// workgroup memory holds the counts of at most 16 subgroups)...
pub const SORT_SUBGROUP_MIN: u32 = 16;
/// ... and of at most this many (a ballot's four words).
pub const SORT_SUBGROUP_MAX: u32 = 128;

/// Rows of at most this many keys are sorted one workgroup each, in workgroup memory
/// (`ROW_MAX` in shaders/sort/local.wgsl).
pub const SORT_ROW_MAX: usize = 1024;

/// A pass of the radix sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortVariant {
    /// Counts each tile's digits (shaders/sort/count.wgsl).
    Count {
        /// Adds each subgroup's keys of a digit at once (shaders/sort/count_subgroup.wgsl,
        /// subgroups of [`SORT_SUBGROUP_MIN`] to [`SORT_SUBGROUP_MAX`] invocations as the
        /// scatter's); else a workgroup atomic per key (shaders/sort/count_atomic.wgsl).
        subgroups: bool,
    },
    /// Moves each key (and with `values`, its value) to its place for the digit
    /// (shaders/sort/scatter.wgsl).
    Scatter {
        /// Whether a value moves with each key (key-value pairs, argsort).
        values: bool,
        /// Ranks the keys with subgroup ballots (shaders/sort/scatter_subgroup.wgsl), on
        /// devices whose subgroups have [`SORT_SUBGROUP_MIN`] to [`SORT_SUBGROUP_MAX`]
        /// invocations; else with workgroup bit masks (shaders/sort/scatter_rank.wgsl).
        subgroups: bool,
    },
    /// Widens 16-bit keys to a u32 word each (shaders/sort/widen.wgsl).
    Widen,
    /// Packs sorted 16-bit keys back two to a word (shaders/sort/narrow.wgsl).
    Narrow,
    /// Sorts along rows: the values at the sorted keys' indices, or each index's place in its
    /// row (shaders/sort/gather.wgsl).
    Gather,
    /// Sorts each row of at most [`SORT_ROW_MAX`] keys in one workgroup (shaders/sort/local.wgsl).
    Local,
    /// Radix select: a row's histogram of one digit of the keys that match the digits chosen
    /// so far (shaders/sort/select_hist.wgsl).
    SelectHist,
    /// Radix select: the digit that holds each row's k-th key (shaders/sort/select_pick.wgsl).
    SelectPick,
    /// Radix select: each tile's keys above and equal to its row's k-th key
    /// (shaders/sort/select_count.wgsl).
    SelectCount,
    /// Radix select: the taken keys and their indices, in index order
    /// (shaders/sort/select_scatter.wgsl).
    SelectScatter,
}

impl SortVariant {
    /// Every pass.
    pub fn all() -> Vec<SortVariant> {
        vec![
            SortVariant::Count { subgroups: false },
            SortVariant::Count { subgroups: true },
            SortVariant::Scatter {
                values: false,
                subgroups: false,
            },
            SortVariant::Scatter {
                values: true,
                subgroups: false,
            },
            SortVariant::Scatter {
                values: false,
                subgroups: true,
            },
            SortVariant::Scatter {
                values: true,
                subgroups: true,
            },
            SortVariant::Widen,
            SortVariant::Narrow,
            SortVariant::Gather,
            SortVariant::Local,
            SortVariant::SelectHist,
            SortVariant::SelectPick,
            SortVariant::SelectCount,
            SortVariant::SelectScatter,
        ]
    }

    /// `sort_count`, `sort_scatter_keys`, `sort_scatter_pairs` (each `_sg` with subgroups),
    /// `sort_widen`, `sort_narrow`,
    /// `sort_gather`, `sort_local`, or `sort_select_hist`, `_pick`, `_count`, `_scatter`.
    pub fn label(&self) -> String {
        match self {
            SortVariant::Count { subgroups: false } => "sort_count".into(),
            SortVariant::Count { subgroups: true } => "sort_count_sg".into(),
            SortVariant::Scatter { values, subgroups } => format!(
                "sort_scatter_{}{}",
                if *values { "pairs" } else { "keys" },
                if *subgroups { "_sg" } else { "" }
            ),
            SortVariant::Widen => "sort_widen".into(),
            SortVariant::Narrow => "sort_narrow".into(),
            SortVariant::Gather => "sort_gather".into(),
            SortVariant::Local => "sort_local".into(),
            SortVariant::SelectHist => "sort_select_hist".into(),
            SortVariant::SelectPick => "sort_select_pick".into(),
            SortVariant::SelectCount => "sort_select_count".into(),
            SortVariant::SelectScatter => "sort_select_scatter".into(),
        }
    }

    /// The full WGSL source.
    pub fn source(&self) -> String {
        let files: &[&str] = match self {
            SortVariant::Count { subgroups: false } => {
                &[wgsl!("sort/count.wgsl"), wgsl!("sort/count_atomic.wgsl")]
            }
            SortVariant::Count { subgroups: true } => &[
                wgsl!("sort/count.wgsl"),
                wgsl!("sort/subgroup_match.wgsl"),
                wgsl!("sort/count_subgroup.wgsl"),
            ],
            SortVariant::Scatter { values, subgroups } => &[
                if *values {
                    wgsl!("sort/values.wgsl")
                } else {
                    wgsl!("sort/keys_only.wgsl")
                },
                wgsl!("sort/scatter.wgsl"),
                if *subgroups {
                    wgsl!("sort/subgroup_match.wgsl")
                } else {
                    ""
                },
                if *subgroups {
                    wgsl!("sort/scatter_subgroup.wgsl")
                } else {
                    wgsl!("sort/scatter_rank.wgsl")
                },
            ],
            SortVariant::Widen => &[wgsl!("sort/widen.wgsl")],
            SortVariant::Narrow => &[wgsl!("sort/narrow.wgsl")],
            SortVariant::Gather => &[wgsl!("sort/gather.wgsl")],
            SortVariant::Local => &[wgsl!("sort/select_common.wgsl"), wgsl!("sort/local.wgsl")],
            SortVariant::SelectHist => &[
                wgsl!("sort/select_common.wgsl"),
                wgsl!("sort/select_hist.wgsl"),
            ],
            SortVariant::SelectPick => &[wgsl!("sort/select_pick.wgsl")],
            SortVariant::SelectCount => &[
                wgsl!("sort/select_common.wgsl"),
                wgsl!("sort/select_count.wgsl"),
            ],
            SortVariant::SelectScatter => &[
                wgsl!("sort/select_common.wgsl"),
                wgsl!("sort/select_scatter.wgsl"),
            ],
        };
        let mut s = format!(
            "// Variant {}: sort/common.wgsl and the pass's files.\n{}",
            self.label(),
            wgsl!("sort/common.wgsl")
        );
        for f in files {
            s.push_str(f);
        }
        s
    }
}
