//! Reductions in the browser: every operation × element type × result type, over whole arrays
//! and each layout (rows, columns, short rows, wide columns, 16-bit column pairs, the flat
//! argmin/argmax pass), and in pieces under a 16 KiB binding limit, against the f64 reference.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::Rng;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};
use wgpu_reduce::{Axes, Context, DType, Error, ReduceOp, Reduction};

use crate::reference::{check, reference};
use crate::run::{data_for, record_reduce, upload, values, Input};
use crate::Kind;

/// The reduction `red` of `inp` as `out`, read back as f64 values with the result's shape.
pub async fn run(
    ctx: &Context,
    inp: &Input,
    red: &Reduction,
    out: DType,
) -> Result<(Vec<f64>, Vec<usize>), Error> {
    with_input!(inp, |x| with_output!(out, O => {
        let mut rec = ctx.recorder();
        let (t, shape) = record_reduce::<_, O>(&mut rec, x, red)?;
        Ok((values(&rec.submit()?.wait_async().await?, &t)?, shape))
    }))
}

/// Checks `red` over random `dtype` data of `shape`, for every allowed result type; returns the
/// number of results checked.
async fn case(
    ctx: &Context,
    rng: &mut StdRng,
    dtype: DType,
    shape: &[usize],
    red: &Reduction,
) -> usize {
    let n: usize = shape.iter().product();
    let data = data_for(rng, red.op, dtype, n);
    let inp = upload(ctx, dtype, &data, shape);
    let want = reference(&data, shape, red);
    let outs = red.op.allowed_outputs(dtype);
    for &out in &outs {
        let what = format!(
            "{} {dtype}->{out} shape {shape:?} axes {:?} keepdim {}",
            red.op.name(),
            red.axes,
            red.keepdim
        );
        let (got, got_shape) = run(ctx, &inp, red, out)
            .await
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(got_shape, red.output_shape(shape).unwrap(), "{what}: shape");
        check(&what, red.op, dtype, out, &got, &want);
    }
    outs.len()
}

/// Shapes and axes that reach each layout, named.
/// (Under the 16 KiB binding limit, one row across a reduced axis, `inner` elements or states,
/// must fit a binding: the wide columns there are narrower.)
fn layouts(op: ReduceOp, dtype: DType, kind: Kind) -> Vec<(&'static str, Vec<usize>, Axes)> {
    let wide = if kind == Kind::Pieces { 1000 } else { 9000 };
    let mut v = vec![
        ("whole", vec![100_003], Axes::All),
        ("rows", vec![37, 1000], Axes::from(1)),
        ("short rows", vec![3000, 3], Axes::from(1)),
        ("columns", vec![1000, 37], Axes::from(0)),
        ("wide columns", vec![3, wide], Axes::from(0)),
        ("middle axis", vec![6, 50, 7], Axes::from(vec![1])),
        (
            "keepdim over two axes",
            vec![5, 40, 9],
            Axes::from(vec![0, 2]),
        ),
    ];
    if dtype.is_half() {
        v.push(("column pairs", vec![500, 38], Axes::from(0)));
    }
    if matches!(op, ReduceOp::Argmin | ReduceOp::Argmax) {
        // Argmin/argmax take one axis or all of them.
        v.retain(|(_, _, a)| !matches!(a, Axes::List(l) if l.len() > 1));
    }
    v
}

async fn sweep(kind: Kind, test: &str) {
    let ctx = crate::ctx_of(kind).await;
    let mut rng = crate::rng(test);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut cases = 0;
    for op in ReduceOp::ALL {
        for dtype in DType::ALL {
            for (i, (name, shape, axes)) in layouts(op, dtype, kind).into_iter().enumerate() {
                // The whole array always; the other layouts sampled.
                if i > 0 && !crate::keep_case(&mut rng) {
                    continue;
                }
                let keepdim = name.starts_with("keepdim");
                let red = Reduction::new(op).axes(axes).keepdim(keepdim);
                let red = if matches!(op, ReduceOp::Var | ReduceOp::Std) {
                    red.correction(rng.gen_range(0..2))
                } else {
                    red
                };
                *counts.entry(format!("{} {dtype}", op.name())).or_default() +=
                    case(&ctx, &mut rng, dtype, &shape, &red).await;
                cases += 1;
            }
        }
    }
    console_log!(
        "{test}: {cases} cases, {} results checked",
        counts.values().sum::<usize>()
    );
    let pairs = ReduceOp::ALL.len() * DType::ALL.len();
    assert_eq!(counts.len(), pairs, "every operation x type ran");
    assert!(counts.values().all(|&c| c >= 1) && cases >= pairs);
}

#[wasm_bindgen_test]
async fn every_operation_type_and_layout() {
    sweep(Kind::Default, "every_operation_type_and_layout").await;
}

#[wasm_bindgen_test]
async fn in_pieces_under_a_small_binding_limit() {
    sweep(Kind::Pieces, "in_pieces_under_a_small_binding_limit").await;
}

#[wasm_bindgen_test]
async fn special_values() {
    // NaN wins min/max and argmax (the first NaN); infinities; ties go to the lowest index.
    let ctx = crate::ctx().await;
    let nan = f32::NAN;
    let inf = f32::INFINITY;
    let x = ctx.upload(&[1.0f32, nan, 3.0, nan, -inf]).unwrap();
    let y = ctx.upload(&[2.0f32, 7.0, -inf, 7.0, 0.5]).unwrap();
    let mut rec = ctx.recorder();
    let r = [
        rec.max(&x).unwrap(),
        rec.min(&x).unwrap(),
        rec.max(&y).unwrap(),
        rec.min(&y).unwrap(),
    ];
    let a = [
        rec.argmax(&x).unwrap(),
        rec.argmax(&y).unwrap(),
        rec.argmin(&y).unwrap(),
    ];
    let tr: Vec<_> = r.iter().map(|v| rec.read(v).unwrap()).collect();
    let ta: Vec<_> = a.iter().map(|v| rec.read(v).unwrap()).collect();
    let res = rec.submit().unwrap().wait_async().await.unwrap();
    let r: Vec<f32> = tr.iter().map(|t| res.scalar(t).unwrap()).collect();
    let a: Vec<u32> = ta.iter().map(|t| res.scalar(t).unwrap()).collect();
    assert!(r[0].is_nan() && r[1].is_nan(), "{r:?}");
    assert_eq!((r[2], r[3]), (7.0, -inf));
    assert_eq!(a, vec![1, 1, 2]);
}
