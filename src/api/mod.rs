//! The operations users call: [`Recorder`](crate::Recorder) methods that plan (with `plan`),
//! pick kernel variants (with `kernels`) and record dispatches, and the [`Context`](crate::Context)
//! methods that record, submit and wait in one call.

mod reduce;
mod scan;
