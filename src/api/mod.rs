//! Every public method of [`Context`](crate::Context) and [`Recorder`](crate::Recorder): making
//! a context, what it holds, arrays in and out and running a recording in one step
//! (`context.rs`, `prepare.rs`), a recorder's reads and submission (`recorder.rs`), and the
//! operations, all recorded (`reduce.rs`, `scan.rs`), which hand their work to `record`.

mod compact;
mod prepare;
mod reduce;
mod scan;
mod sort;

mod context;
mod recorder;

pub use compact::Compacted;
