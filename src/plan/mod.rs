//! Planning: shapes, axes and the device's tuning in, passes out. Pure functions over plain
//! data, unit-tested without a device; the `api` layer records what they return.

pub(crate) mod reduce;
pub(crate) mod scan;
