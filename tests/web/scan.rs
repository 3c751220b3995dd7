//! Scans in the browser: every operation × element type, both algorithms, inclusive and
//! exclusive, over one tile, many tiles, short rows (one invocation each), rows whose length is
//! not a multiple of 4, and the look-back's fallback forced, against the f64 reference.

use std::collections::BTreeSet;

use rand::rngs::StdRng;
use rand::Rng;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};
use wgpu_reduce::{Context, DType, Error, Scan, ScanAlgorithm, ScanOp};

use crate::run::{make_data, record_scan, upload, values, Input};
use crate::scan_ref::{check_scan, scan_reference};

async fn run(ctx: &Context, inp: &Input, scan: &Scan) -> Result<Vec<f64>, Error> {
    with_input!(inp, |x| {
        let mut rec = ctx.recorder();
        let t = record_scan(&mut rec, x, scan)?;
        values(&rec.submit()?.wait_async().await?, &t)
    })
}

/// Scans random `dtype` data of `shape` with `scan` and checks every element (float sums within
/// the stated tolerance; integer, min and max scans exactly).
async fn case(ctx: &Context, rng: &mut StdRng, dtype: DType, shape: &[usize], scan: &Scan) {
    let n: usize = shape.iter().product();
    let len = shape.last().copied().unwrap_or(1);
    let rows = n.checked_div(len).unwrap_or(0);
    let mut r2 = rng.clone();
    let d = make_data(
        dtype,
        n,
        || rng.gen_range(-1.0..1.0),
        || r2.gen::<u32>() as i64,
    );
    let _ = rng.gen::<u64>();
    let inp = upload(ctx, dtype, &d, shape);
    let what = format!("{} {dtype} {shape:?} {scan:?}", scan.op.name());
    let got = run(ctx, &inp, scan)
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let want = scan_reference(&d, rows, len, scan.op, scan.exclusive);
    let out = scan.op.output(dtype);
    let exact = !out.is_float() || scan.op != ScanOp::Add;
    check_scan(&what, scan.op, out, &got, &want, ctx.scan_tile(), exact);
}

#[wasm_bindgen_test]
async fn every_scan_type_algorithm_and_shape() {
    let ctx = crate::ctx().await;
    let mut rng = crate::rng("every_scan_type_algorithm_and_shape");
    let tile = ctx.scan_tile();
    let shapes: [Vec<usize>; 5] = [
        vec![tile - 5],
        vec![5 * tile + 7],
        vec![300, 17],
        vec![7, 2 * tile + 3],
        vec![3, 4, 2 * tile],
    ];
    let mut pairs = BTreeSet::new();
    let mut algorithms = BTreeSet::new();
    let mut cases = 0;
    for op in ScanOp::ALL {
        for dtype in DType::ALL {
            for (i, shape) in shapes.iter().enumerate() {
                for algorithm in [
                    ScanAlgorithm::ReduceThenScan,
                    ScanAlgorithm::DecoupledFallback,
                ] {
                    // One shape of many tiles always; the rest sampled.
                    if i != 1 && !crate::keep_case(&mut rng) {
                        continue;
                    }
                    let exclusive = rng.gen_bool(0.5);
                    let scan = Scan::new(op).algorithm(algorithm).exclusive(exclusive);
                    case(&ctx, &mut rng, dtype, shape, &scan).await;
                    pairs.insert(format!("{} {dtype}", op.name()));
                    algorithms.insert(format!("{algorithm:?}"));
                    cases += 1;
                }
            }
        }
    }
    console_log!("scans: {cases} cases");
    assert_eq!(
        pairs.len(),
        ScanOp::ALL.len() * DType::ALL.len(),
        "every op x type ran"
    );
    assert_eq!(algorithms.len(), 2, "both algorithms ran");
}

#[wasm_bindgen_test]
async fn lookback_fallbacks() {
    // Every look-back takes its fallback (and, with hidden states, partial windows).
    let ctx = crate::ctx().await;
    let mut rng = crate::rng("lookback_fallbacks");
    let n = 6 * ctx.scan_tile() + 11;
    let base = Scan::new(ScanOp::Add).algorithm(ScanAlgorithm::DecoupledFallback);
    for scan in [
        base.force_fallback(true).spin_limit(2),
        base.hide_some(true).spin_limit(1),
        base.aggregates_only(true),
    ] {
        for dtype in [DType::I32, DType::F32] {
            case(&ctx, &mut rng, dtype, &[n], &scan).await;
        }
    }
}
