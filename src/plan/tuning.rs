//! The kernel settings the planner works from: defaults, resolved within a device's limits.

use crate::kernels::{SCAN_ROW_WORKGROUP, SCAN_ROW_WORKGROUP_STORAGE, WORKGROUP_SIZES};

/// Kernel settings: workgroup sizes, how many workgroups a pass takes, and where each scan
/// algorithm and the one-pass finish of reductions are used.
///
/// A context resolves them from its device ([`Tuning::resolve`] of the defaults); read them with
/// `Context::tuning`. They change speed, never results beyond the stated error bounds. Benchmarks
/// may start from other settings with `ContextOptions::tuning`, which are resolved the same way.
///
/// ```
/// let mut t = wgpu_reduce::Tuning::default();
/// t.workgroup_size = 128;
/// let options = wgpu_reduce::ContextOptions::default().with_tuning(t);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tuning {
    /// Workgroup size of the reduction and scan kernels: one of [`WORKGROUP_SIZES`] (default
    /// 256, lowered to what the device allows).
    pub workgroup_size: u32,
    /// Most workgroups in the first pass of a whole-array reduction (default 512).
    pub max_workgroups: u32,
    /// Workgroups a pass along axes, or of a scan, aims for (default 1024).
    pub target_workgroups: u32,
    /// Most tiles each workgroup of a scan's tile passes loops over (default 2).
    pub scan_tiles_per_workgroup: u32,
    /// Workgroup size of a scan pass over rows of one tile at this size: [`SCAN_ROW_WORKGROUP`]
    /// where the device allows it, else `workgroup_size` (any smaller value turns it off).
    pub scan_row_workgroup_size: u32,
    /// Workgroup size of the look-back over one row of many tiles, chosen as
    /// `scan_row_workgroup_size` is.
    pub scan_lookback_workgroup_size: u32,
    /// Smallest and largest scan input (bytes) whose reduce-then-scan passes take contiguous
    /// runs of tiles, the downsweep from the end (default 32 MiB to 256 MiB; none where the
    /// first is larger).
    pub scan_reversed_runs_bytes: (u64, u64),
    /// The look-back is taken for rows of 2 to this many tiles, however many rows (default 4)...
    pub scan_lookback_row_tiles: usize,
    /// ... and for longer rows while the scan has at most this many tiles (default 128).
    pub scan_lookback_max_tiles: usize,
    /// ... and for one row of at most this many tiles at `scan_lookback_workgroup_size`
    /// (default 256).
    pub scan_lookback_wide_max_tiles: usize,
    /// The look-back over one row of at most this many tiles runs at half the workgroup size
    /// (default 48; 0 turns it off).
    pub scan_lookback_small_tiles: usize,
    /// Rows of at most this many elements, in arrays of several rows, are scanned one row per
    /// invocation (default 64).
    pub scan_serial_max_len: usize,
    /// A reduce-then-scan of at most this many tiles takes two passes instead of three
    /// (default 2048; 0 turns it off).
    pub scan_fused_max_tiles: usize,
    /// A whole-array reduction of two passes whose second would combine at most 1,024 values
    /// takes one, its last workgroup combining the others' values (default true).
    pub reduce_last_group: bool,
    /// With `reduce_last_group`, the whole-array reductions of the flat first pass (argmin,
    /// argmax, aminmax, norms, nansum, any, all, count_nonzero) finish in it too (default true).
    pub reduce_last_group_flat: bool,
    /// Kernels use subgroup operations (default true: where the device has them and
    /// `ContextOptions::subgroups` allows them).
    pub subgroups: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            workgroup_size: 256,
            max_workgroups: 512,
            target_workgroups: 1024,
            scan_tiles_per_workgroup: 2,
            scan_row_workgroup_size: SCAN_ROW_WORKGROUP,
            scan_lookback_workgroup_size: SCAN_ROW_WORKGROUP,
            scan_reversed_runs_bytes: (32 << 20, 256 << 20),
            scan_lookback_row_tiles: 4,
            scan_lookback_max_tiles: 128,
            scan_lookback_wide_max_tiles: 256,
            scan_lookback_small_tiles: 48,
            scan_serial_max_len: 64,
            scan_fused_max_tiles: 2048,
            reduce_last_group: true,
            reduce_last_group_flat: true,
            subgroups: true,
        }
    }
}

impl Tuning {
    /// These settings within a device's limits: the workgroup size lowered to what it allows,
    /// the larger scan workgroups only where it has the invocations and workgroup memory for
    /// them, at least one workgroup, and subgroups only where `subgroups` says the device may
    /// use them.
    pub fn resolve(&self, limits: &wgpu::Limits, subgroups: bool) -> Tuning {
        let max_invocations = limits
            .max_compute_invocations_per_workgroup
            .min(limits.max_compute_workgroup_size_x);
        let workgroup_size = WORKGROUP_SIZES
            .iter()
            .copied()
            .filter(|&w| w <= self.workgroup_size.max(WORKGROUP_SIZES[0]) && w <= max_invocations)
            .max()
            .unwrap_or(WORKGROUP_SIZES[0]);
        let wide = |asked: u32| {
            if asked >= SCAN_ROW_WORKGROUP
                && workgroup_size == WORKGROUP_SIZES[WORKGROUP_SIZES.len() - 1]
                && max_invocations >= SCAN_ROW_WORKGROUP
                && limits.max_compute_workgroup_storage_size >= SCAN_ROW_WORKGROUP_STORAGE
            {
                SCAN_ROW_WORKGROUP
            } else {
                workgroup_size
            }
        };
        Tuning {
            workgroup_size,
            max_workgroups: self
                .max_workgroups
                .clamp(1, limits.max_compute_workgroups_per_dimension.max(1)),
            target_workgroups: self.target_workgroups.max(1),
            scan_tiles_per_workgroup: self.scan_tiles_per_workgroup.max(1),
            scan_row_workgroup_size: wide(self.scan_row_workgroup_size),
            scan_lookback_workgroup_size: wide(self.scan_lookback_workgroup_size),
            subgroups: self.subgroups && subgroups,
            ..*self
        }
    }

    /// Whether whole-array reductions that take the flat first pass finish in it (its last
    /// workgroup combining), where they have few enough workgroups.
    pub(crate) fn flat_last_group(&self) -> bool {
        self.reduce_last_group && self.reduce_last_group_flat
    }

    /// Worst-case error of an f32 sum of `n` values whose magnitudes add up to `sum_abs`, against
    /// the exact sum, with these settings. The kernels add each vec4 lane's elements
    /// sequentially, then combine lanes in trees, so the error is at most
    /// `(per_lane + tree_depth) · u · Σ|x|` with `u = 2^-24`. A first pass has up to
    /// `4 · workgroup_size · max_workgroups` lanes and gives each thread at least 4 vec4 words
    /// before adding workgroups, so `per_lane ≤ max(n / lanes, 4) + 1`;
    /// `tree_depth ≤ log2(n) + 3`, plus, where the last workgroup combines the others' values
    /// (`reduce_last_group`), the `max_workgroups / workgroup_size` values each of its
    /// invocations adds in turn.
    pub fn f32_sum_error_bound(&self, n: usize, sum_abs: f64) -> f64 {
        let u = f64::from(f32::EPSILON) / 2.0;
        let combine = match self.reduce_last_group {
            true => f64::from(self.max_workgroups.div_ceil(self.workgroup_size)),
            false => 0.0,
        };
        let depth = (n.max(1) as f64).log2().ceil() + 3.0 + combine;
        let lanes = 4.0 * f64::from(self.workgroup_size) * f64::from(self.max_workgroups);
        let per_lane = (n as f64 / lanes).ceil().max(4.0) + 1.0;
        (per_lane + depth) * u * sum_abs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roomy() -> wgpu::Limits {
        wgpu::Limits {
            max_compute_invocations_per_workgroup: 1024,
            max_compute_workgroup_size_x: 1024,
            max_compute_workgroup_storage_size: 32 << 10,
            ..wgpu::Limits::default()
        }
    }

    #[test]
    fn the_larger_scan_workgroups_only_where_the_device_allows_them() {
        let t = Tuning::default().resolve(&roomy(), true);
        assert_eq!(t.workgroup_size, 256);
        assert_eq!(t.scan_row_workgroup_size, 512);
        assert_eq!(t.scan_lookback_workgroup_size, 512);
        // WebGPU's defaults: 256 invocations, 16 KiB of workgroup memory.
        let t = Tuning::default().resolve(&wgpu::Limits::default(), true);
        assert_eq!(t.scan_row_workgroup_size, 256);
        assert_eq!(t.scan_lookback_workgroup_size, 256);
        // 512 invocations but too little workgroup memory.
        let tight = wgpu::Limits {
            max_compute_workgroup_storage_size: SCAN_ROW_WORKGROUP_STORAGE - 1,
            ..roomy()
        };
        let t = Tuning::default().resolve(&tight, true);
        assert_eq!(t.scan_lookback_workgroup_size, 256);
        // Turned off, each apart from the other.
        let off = Tuning {
            scan_lookback_workgroup_size: 256,
            ..Tuning::default()
        };
        let t = off.resolve(&roomy(), true);
        assert_eq!(
            (t.scan_row_workgroup_size, t.scan_lookback_workgroup_size),
            (512, 256)
        );
        // Smaller kernels' workgroups: no larger scan workgroup either.
        let small = Tuning {
            workgroup_size: 128,
            ..Tuning::default()
        };
        let t = small.resolve(&roomy(), true);
        assert_eq!(
            (t.workgroup_size, t.scan_lookback_workgroup_size),
            (128, 128)
        );
    }

    #[test]
    fn workgroups_and_subgroups_fit_the_device() {
        let few = wgpu::Limits {
            max_compute_invocations_per_workgroup: 128,
            max_compute_workgroups_per_dimension: 100,
            ..wgpu::Limits::default()
        };
        let t = Tuning::default().resolve(&few, false);
        assert_eq!((t.workgroup_size, t.max_workgroups), (128, 100));
        assert!(!t.subgroups);
        assert!(Tuning::default().resolve(&few, true).subgroups);
        let off = Tuning {
            subgroups: false,
            target_workgroups: 0,
            scan_tiles_per_workgroup: 0,
            ..Tuning::default()
        };
        let t = off.resolve(&few, true);
        assert!(!t.subgroups);
        assert_eq!((t.target_workgroups, t.scan_tiles_per_workgroup), (1, 1));
        // Settings the device does not bound are kept as given.
        assert_eq!(t.scan_fused_max_tiles, 2048);
    }
}
