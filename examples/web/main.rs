//! The library in a web page: pick an operation and a size, run it on the browser's GPU
//! (WebGPU), check the result against the CPU, and see the time and bandwidth.
//!
//! Build and serve on 127.0.0.1 (needs the wasm32 target and wasm-bindgen-cli):
//!
//!     bash examples/web/serve.sh        # then open http://127.0.0.1:8000/
//!
//! This file is the page's Rust side, compiled to WebAssembly; `index.html` calls the two
//! functions it exports (`start`, `run`). Everything is async, as it must be on the web.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wasm_bindgen::prelude::*;
use wgpu_reduce::{Context, ContextOptions};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance)]
    fn now() -> f64;
}

thread_local! {
    static CTX: RefCell<Option<Context>> = const { RefCell::new(None) };
}

fn ctx() -> Result<Context, JsValue> {
    CTX.with(|c| c.borrow().clone())
        .ok_or_else(|| JsValue::from_str("start() has not finished"))
}

fn js_err(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

/// Creates the library's context on the browser's GPU; returns wgpu's backend and adapter
/// description (wgpu leaves the name empty on the web; the page adds the browser's own).
#[wasm_bindgen]
pub async fn start() -> Result<String, JsValue> {
    let ctx = Context::new_async(ContextOptions::default())
        .await
        .map_err(js_err)?;
    let a = &ctx.capabilities().adapter;
    let text = format!("wgpu backend {:?} {} {}", a.backend, a.name, a.driver_info)
        .trim()
        .to_string();
    CTX.with(|c| *c.borrow_mut() = Some(ctx));
    Ok(text)
}

/// What one run shows, as JSON for the page.
struct Report {
    gpu: String,
    cpu: String,
    ok: bool,
    check: String,
}

/// Runs `op` (sum, max, argmax, mean or cumsum) over `n` random f32 values `repeats` times after
/// a warm-up (which compiles the kernels), checks the result against the CPU in f64 and returns
/// a JSON report: the result, the CPU's, whether they agree, and the median time per call (record,
/// submit, wait, read back) with the bandwidth it means.
#[wasm_bindgen]
pub async fn run(op: String, n: u32, repeats: u32) -> Result<String, JsValue> {
    let ctx = ctx()?;
    let n = n as usize;
    let mut rng = StdRng::seed_from_u64((js_sys::Math::random() * 2f64.powi(53)) as u64);
    let data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
    let x = ctx.upload(&data).map_err(js_err)?;
    let mut times = Vec::new();
    let mut last = Vec::new();
    for i in 0..=repeats.max(1) {
        let t0 = now();
        last = call(&ctx, &op, &x).await.map_err(js_err)?;
        if i > 0 {
            times.push(now() - t0);
        }
    }
    times.sort_by(f64::total_cmp);
    let ms = times[times.len() / 2];
    let r = check(&op, &data, &last, ctx.tuning())?;
    let json = format!(
        "{{\"gpu\":{:?},\"cpu\":{:?},\"ok\":{},\"check\":{:?},\"ms\":{},\"gbs\":{}}}",
        r.gpu,
        r.cpu,
        r.ok,
        r.check,
        ms,
        (4 * n) as f64 / (ms * 1e-3) / 1e9
    );
    Ok(json)
}

/// One call, host to host, in one await (record, submit, wait, read): the values as f64.
async fn call(
    ctx: &Context,
    op: &str,
    x: &wgpu_reduce::GpuArray<f32>,
) -> wgpu_reduce::Result<Vec<f64>> {
    let widen = |v: Vec<f32>| v.into_iter().map(f64::from).collect();
    Ok(match op {
        "sum" => widen(ctx.run_async(|rec| rec.sum(x, .., false)).await?),
        "max" => widen(ctx.run_async(|rec| rec.max(x, .., false)).await?),
        "mean" => widen(ctx.run_async(|rec| rec.mean(x, .., false)).await?),
        "cumsum" => widen(ctx.run_async(|rec| rec.cumsum(x)).await?),
        "argmax" => ctx
            .run_async(|rec| rec.argmax(x, .., false))
            .await?
            .into_iter()
            .map(f64::from)
            .collect(),
        other => {
            return Err(wgpu_reduce::Error::InvalidUse(format!(
                "unknown operation {other:?} (sum, max, argmax, mean or cumsum)"
            )))
        }
    })
}

/// Compares the GPU's values with an f64 CPU reference (sums within the library's stated f32
/// error bound; max and argmax exactly).
fn check(
    op: &str,
    data: &[f32],
    gpu: &[f64],
    tuning: wgpu_reduce::Tuning,
) -> Result<Report, JsValue> {
    let ctx_tile = || ctx().map(|c| c.scan_tile()).unwrap_or(1);
    let n = data.len();
    let abs: f64 = data.iter().map(|&v| f64::from(v).abs()).sum();
    let sum: f64 = data.iter().map(|&v| f64::from(v)).sum();
    let one = |cpu: f64, tol: f64, shown: String| {
        let g = gpu.first().copied().unwrap_or(f64::NAN);
        let ok = (g - cpu).abs() <= tol;
        Report {
            gpu: shown,
            cpu: format!("{cpu}"),
            ok,
            check: format!("|GPU - CPU| = {:.3e}, allowed {:.3e}", (g - cpu).abs(), tol),
        }
    };
    let g0 = gpu.first().copied().unwrap_or(f64::NAN);
    Ok(match op {
        "sum" => one(sum, tuning.f32_sum_error_bound(n, abs), format!("{g0}")),
        "mean" => one(
            sum / n as f64,
            tuning.f32_sum_error_bound(n, abs) / n as f64 + f64::from(f32::EPSILON) * g0.abs(),
            format!("{g0}"),
        ),
        "max" => {
            let m = data.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            one(f64::from(m), 0.0, format!("{g0}"))
        }
        "argmax" => {
            let (mut best, mut at) = (f32::NEG_INFINITY, 0usize);
            for (i, &v) in data.iter().enumerate() {
                if v > best {
                    (best, at) = (v, i);
                }
            }
            one(
                at as f64,
                0.0,
                format!("{g0} (value {})", data[g0 as usize % n.max(1)]),
            )
        }
        _ => {
            // cumsum: every element, each within the bound the scan tests state (scan_tolerance
            // in tests/common/scan_ref.rs: 4 levels of at most 84 roundings, the carries of the
            // tiles before it, the final rounding).
            let u = f64::from(f32::EPSILON) / 2.0;
            let tile = ctx_tile();
            let (mut run, mut run_abs, mut worst, mut bad) = (0.0f64, 0.0f64, 0.0f64, 0usize);
            for (i, (&v, &g)) in data.iter().zip(gpu).enumerate() {
                run += f64::from(v);
                run_abs += f64::from(v).abs();
                let depth = 4.0 * 84.0 + (i / tile + 1) as f64;
                let tol = depth * u * run_abs + u * run.abs() + f64::from(f32::MIN_POSITIVE);
                worst = worst.max((g - run).abs() / tol);
                bad += usize::from((g - run).abs() > tol);
            }
            let ok = bad == 0 && gpu.len() == n;
            Report {
                gpu: format!("last element {}", gpu.last().copied().unwrap_or(f64::NAN)),
                cpu: format!("last element {run}"),
                ok,
                check: format!(
                    "{n} elements checked, {bad} outside the bound (worst {worst:.1e} of it)"
                ),
            }
        }
    })
}
