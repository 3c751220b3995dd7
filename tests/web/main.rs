//! The GPU tests in a browser: wasm32-unknown-unknown, run by wasm-bindgen-test in headless
//! Chromium (WebGPU on SwiftShader in CI; `webdriver.json` beside Cargo.toml passes the flags).
//! Everything goes through the async API, as an application on the web must use it.
//!
//! - `tint`: every kernel variant the library can build, compiled by the browser's WGSL
//!   compiler (Tint), with a compute pipeline built for a sample of every family.
//! - `reduce`, `scan`: every operation × element type × layout against the f64 CPU reference
//!   of tests/common, sampled (seeded and printed), with the count of checked cases asserted.
//! - `sort`: the radix sort (sort, argsort, pairs) against a stable CPU sort.
//! - `compact`: compaction, partition, nonzero, runs, unique values and histograms against CPU
//!   references.
//! - `api`: the recorder (batching, chaining, reading, `record_into`), typed errors and the
//!   web's error model.
//!
//! Run: `bash .ci/web` (installs what it needs), or by hand with chromedriver on the PATH:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//!  cargo test --target wasm32-unknown-unknown --test web`.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;

use rand::rngs::StdRng;
use rand::SeedableRng;
use wasm_bindgen_test::{console_log, wasm_bindgen_test_configure};
use wgpu_reduce::{Context, ContextOptions, Subgroups};

wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/reference.rs"]
mod reference;
#[allow(dead_code)]
#[macro_use]
#[path = "../common/run.rs"]
mod run;
#[path = "../common/scan_ref.rs"]
mod scan_ref;

mod api;
mod compact;
mod reduce;
mod scan;
mod sort;
mod tint;

/// The share of a sweep's optional cases that run (the browser's software GPU compiles each new
/// kernel in a fraction of a second; every operation × type still runs at least once).
const SWEEP: f64 = 0.15;

/// `run.rs`'s sampling hook (its blocking `case` is not used here).
fn keep_case(rng: &mut StdRng) -> bool {
    use rand::Rng;
    rng.gen_bool(SWEEP)
}

/// A fresh seed, printed, so a failure can be replayed (`seeded`).
fn rng(test: &str) -> StdRng {
    let seed = (js_sys::Math::random() * 2f64.powi(53)) as u64;
    console_log!("{test}: seed {seed}");
    StdRng::seed_from_u64(seed)
}

/// How a test context is configured.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The defaults (subgroups where the device has them: wgpu does not expose them on the web).
    Default,
    /// A 16 KiB storage-binding limit, so that arrays are reduced in pieces.
    Pieces,
}

thread_local! {
    static CONTEXTS: RefCell<Vec<(Kind, Context)>> = const { RefCell::new(Vec::new()) };
}

/// The shared context of `kind` (made once: pipelines are compiled once per context). Fails
/// unless it runs on the browser's WebGPU, so a silent fallback cannot pass.
async fn ctx_of(kind: Kind) -> Context {
    if let Some(c) = CONTEXTS.with(|c| {
        c.borrow()
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, c)| c.clone())
    }) {
        return c;
    }
    let options = ContextOptions::default()
        .with_subgroups(Subgroups::Auto)
        .with_testing(wgpu_reduce::Testing {
            poison_temporaries: true,
            max_storage_binding_bytes: (kind == Kind::Pieces).then_some(16 << 10),
            ..Default::default()
        });
    let ctx = Context::new_async(options)
        .await
        .unwrap_or_else(|e| panic!("no WebGPU context in this browser: {e}"));
    let caps = ctx.capabilities();
    console_log!(
        "GPU tests run on adapter {:?} ({:?}, driver {:?}); tuning {:?}",
        caps.adapter.name,
        caps.adapter.backend,
        caps.adapter.driver_info,
        ctx.tuning()
    );
    assert_eq!(
        caps.adapter.backend,
        wgpu_reduce::wgpu::Backend::BrowserWebGpu,
        "the browser tests must run on the browser's WebGPU"
    );
    CONTEXTS.with(|c| c.borrow_mut().push((kind, ctx.clone())));
    ctx
}

async fn ctx() -> Context {
    ctx_of(Kind::Default).await
}
