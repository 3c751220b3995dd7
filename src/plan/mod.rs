//! Planning: shapes, axes and the device's tuning in, passes out. Pure functions over plain
//! data, unit-tested without a device; the `api` layer records what they return.

pub(crate) mod pieces;
pub(crate) mod prepare;
pub(crate) mod reduce;
pub(crate) mod scan;
pub(crate) mod tuning;

/// The default tuning on a device with subgroups and room for the larger scan workgroups, for
/// the planners' unit tests.
#[cfg(test)]
pub(crate) fn test_tuning() -> tuning::Tuning {
    tuning::Tuning {
        scan_reversed_runs_bytes: (0, 0),
        ..tuning::Tuning::default()
    }
}
