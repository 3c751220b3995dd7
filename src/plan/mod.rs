//! Planning: shapes, axes and the device's tuning in, passes out. Pure functions over plain
//! data, unit-tested without a device; the `api` layer records what they return.

pub(crate) mod prepare;
pub(crate) mod reduce;
pub(crate) mod scan;

/// The H200's default tuning, for the planners' unit tests.
#[cfg(test)]
pub(crate) fn test_tuning() -> crate::context::Tuning {
    crate::context::Tuning {
        workgroup_size: 256,
        max_workgroups: 512,
        target_workgroups: 1024,
        scan_tiles_per_workgroup: 2,
        scan_row_workgroup_size: 512,
        scan_lookback_workgroup_size: 512,
        scan_reversed_runs_bytes: (0, 0),
        scan_lookback_row_tiles: 4,
        scan_lookback_max_tiles: 128,
        scan_lookback_wide_max_tiles: 256,
        scan_lookback_small_tiles: 48,
        scan_serial_max_len: 64,
        scan_fused_max_tiles: 2048,
        reduce_last_group: true,
        reduce_hide_partials: false,
        reduce_last_group_flat: true,
        level_dispatches: false,
        subgroups: true,
    }
}
