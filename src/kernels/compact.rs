//! The kernels of compaction, runs and histograms (`shaders/compact/`): a count of each tile's
//! kept elements and a stable scatter (with a scan of the counts between them), the count
//! kept, the fill past it, run lengths, nonzero's coordinates, and histograms.

use super::source::wgsl;

/// Elements per workgroup of the compaction (`TILE` in shaders/compact/common.wgsl).
pub const COMPACT_TILE: usize = 4096;

/// Elements per tile of a histogram (`HTILE` in shaders/compact/histogram.wgsl).
pub const HISTOGRAM_TILE: usize = 4096;

/// Bins a histogram counts in workgroup memory (`PRIVATE_BINS` in
/// shaders/compact/histogram.wgsl); more go straight to the counts in memory.
pub const HISTOGRAM_PRIVATE_BINS: usize = 2048;

/// A kernel of compaction, runs or histograms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompactVariant {
    /// Counts each tile's kept elements (shaders/compact/count.wgsl).
    Count,
    /// Writes the kept elements (or their indices) at their places
    /// (shaders/compact/scatter.wgsl).
    Scatter,
    /// The number kept (shaders/compact/total.wgsl).
    Total,
    /// Sets the places past the count to a value (shaders/compact/pad.wgsl).
    Pad,
    /// Each run's length from the places of the runs' first elements
    /// (shaders/compact/run_lengths.wgsl).
    RunLengths,
    /// Flat indices to coordinates, three dimensions a dispatch (shaders/compact/unravel.wgsl).
    Unravel,
    /// A comparison of each element with a value: a mask (shaders/compact/compare.wgsl).
    Compare,
    /// A histogram of float or integer elements along rows (shaders/compact/histogram.wgsl).
    Histogram {
        /// Counts in workgroup memory first (at most [`HISTOGRAM_PRIVATE_BINS`] bins).
        private: bool,
    },
}

impl CompactVariant {
    /// Every kernel.
    pub fn all() -> Vec<CompactVariant> {
        vec![
            CompactVariant::Count,
            CompactVariant::Scatter,
            CompactVariant::Total,
            CompactVariant::Pad,
            CompactVariant::RunLengths,
            CompactVariant::Unravel,
            CompactVariant::Compare,
            CompactVariant::Histogram { private: true },
            CompactVariant::Histogram { private: false },
        ]
    }

    /// `compact_count`, `compact_scatter`, `compact_total`, `compact_pad`,
    /// `compact_run_lengths`, `compact_unravel`, `compact_compare`, `histogram_private` or
    /// `histogram_global`.
    pub fn label(&self) -> String {
        match self {
            CompactVariant::Count => "compact_count".into(),
            CompactVariant::Scatter => "compact_scatter".into(),
            CompactVariant::Total => "compact_total".into(),
            CompactVariant::Pad => "compact_pad".into(),
            CompactVariant::RunLengths => "compact_run_lengths".into(),
            CompactVariant::Unravel => "compact_unravel".into(),
            CompactVariant::Compare => "compact_compare".into(),
            CompactVariant::Histogram { private: true } => "histogram_private".into(),
            CompactVariant::Histogram { private: false } => "histogram_global".into(),
        }
    }

    /// Whether the kernel widens f16 elements (its source ends with the widening's helpers).
    pub fn widens_f16(&self) -> bool {
        matches!(
            self,
            CompactVariant::Histogram { .. } | CompactVariant::Compare
        )
    }

    /// The WGSL source (without the f16 widening; see [`widens_f16`](Self::widens_f16)).
    pub fn source(&self) -> String {
        let elements = wgsl!("compact/elements.wgsl");
        let files: &[&str] = match self {
            CompactVariant::Count => &[elements, wgsl!("compact/count.wgsl")],
            CompactVariant::Scatter => &[elements, wgsl!("compact/scatter.wgsl")],
            CompactVariant::Total => &[wgsl!("compact/total.wgsl")],
            CompactVariant::Pad => &[wgsl!("compact/pad.wgsl")],
            CompactVariant::RunLengths => &[wgsl!("compact/run_lengths.wgsl")],
            CompactVariant::Unravel => &[wgsl!("compact/unravel.wgsl")],
            CompactVariant::Compare => &[elements, wgsl!("compact/compare.wgsl")],
            CompactVariant::Histogram { .. } => &[elements, wgsl!("compact/histogram.wgsl")],
        };
        let prelude = match self {
            CompactVariant::Histogram { private } => format!("const PRIVATE: bool = {private};\n"),
            _ => String::new(),
        };
        let mut s = format!(
            "// Variant {}: compact/common.wgsl and the kernel's files.\n{prelude}{}",
            self.label(),
            wgsl!("compact/common.wgsl"),
        );
        for f in files {
            s.push_str(f);
        }
        s
    }
}
