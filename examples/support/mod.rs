//! What the `sum` and `scan` examples share: element values as f64, medians, the seed, the
//! adapter line and the CSV file.

// Each example uses the parts it needs.
#![allow(dead_code)]

use std::time::Duration;

use half::{bf16, f16};
use rand::Rng;
use wgpu_reduce::{Context, Element};

/// Element types as f64 (the reference's view of them).
pub trait AsF64: Element {
    fn as_f64(self) -> f64;
}
macro_rules! as_f64 {
    ($($t:ty),*) => {$(impl AsF64 for $t { fn as_f64(self) -> f64 { f64::from(self) } })*};
}
as_f64!(f32, i32, u32, f16, bf16);

pub fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// WGPU_REDUCE_SEED, or a fresh random seed.
pub fn seed() -> u64 {
    std::env::var("WGPU_REDUCE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().gen())
}

/// Prints the adapter, backend, driver, features and tuning.
pub fn print_adapter(ctx: &Context) {
    let caps = ctx.capabilities();
    println!(
        "adapter: {} | backend: {:?} | driver: {} {} | subgroups: {} | timestamps: {} | tuning: {:?} \
         | max binding {} B, max buffer {} B",
        caps.adapter.name,
        caps.adapter.backend,
        caps.adapter.driver,
        caps.adapter.driver_info,
        caps.subgroups,
        caps.timestamps,
        ctx.tuning(),
        caps.limits.max_storage_buffer_binding_size,
        caps.limits.max_buffer_size
    );
}

/// `path` opened for appending, if given.
pub fn open_csv(path: Option<&String>) -> Option<std::io::Result<std::fs::File>> {
    path.map(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
    })
}

/// The parsed arguments, or `None` after printing why they could not be parsed (the caller
/// exits with status 2).
pub fn parsed<A>(args: Result<A, String>) -> Option<A> {
    args.map_err(|e| eprintln!("{e}")).ok()
}
