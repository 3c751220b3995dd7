//! Reductions in the browser: every operation × element type × result type, over whole arrays
//! and each layout (rows, columns, short rows, wide columns, 16-bit column pairs, the flat
//! argmin/argmax pass), and in pieces under a 16 KiB binding limit, against the f64 reference.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::Rng;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};
use wgpu_reduce::{Axes, Context, DType, Error, ReduceOp, Reduction};

use crate::reference::{check, reference, reference_dot, Data};
use crate::run::{data_for, record_reduce, upload, upload_as, values, AsF64, Input};
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

/// Checks the dot product of two random `dtype` arrays of `shape` along `axes`; returns 1.
async fn dot_case(
    ctx: &Context,
    rng: &mut StdRng,
    dtype: DType,
    shape: &[usize],
    axes: Axes,
) -> usize {
    let n: usize = shape.iter().product();
    let (a, b) = (
        data_for(rng, ReduceOp::Sum, dtype, n),
        data_for(rng, ReduceOp::Sum, dtype, n),
    );
    let red = Reduction::new(ReduceOp::Dot).axes(axes.clone());
    let want = reference_dot(&a, &b, shape, &red);
    let what = format!("dot {dtype} shape {shape:?} axes {axes:?}");
    let got = match dtype {
        DType::F32 => dot_values::<f32>(ctx, &a, &b, shape, axes).await,
        DType::F16 => dot_values::<half::f16>(ctx, &a, &b, shape, axes).await,
        DType::BF16 => dot_values::<half::bf16>(ctx, &a, &b, shape, axes).await,
        DType::I32 => dot_values::<i32>(ctx, &a, &b, shape, axes).await,
        _ => dot_values::<u32>(ctx, &a, &b, shape, axes).await,
    };
    let got = got.unwrap_or_else(|e| panic!("{what}: {e}"));
    check(&what, ReduceOp::Dot, dtype, dtype, &got, &want);
    1
}

/// The dot product of `a` and `b` (uploaded as `T`) along `axes`, read back as f64 values.
async fn dot_values<T: AsF64>(
    ctx: &Context,
    a: &Data,
    b: &Data,
    shape: &[usize],
    axes: Axes,
) -> Result<Vec<f64>, Error> {
    let (xa, xb) = (
        upload_as::<T>(ctx, a, shape)?,
        upload_as::<T>(ctx, b, shape)?,
    );
    let mut rec = ctx.recorder();
    let y = rec.dot(&xa, &xb, axes, false)?;
    let t = rec.read(&y)?;
    values(&rec.submit()?.wait_async().await?, &t)
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
    if op.is_arg() {
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
    let mut pairs = 0;
    // In pieces, the basic nine and one operation of each further state size (8-byte states:
    // logsumexp; pairs of results: aminmax): pieces are cut by state and result sizes, the same
    // code for every operation. Whole, every operation.
    let ops: Vec<ReduceOp> = match kind {
        Kind::Pieces => ReduceOp::BASIC
            .into_iter()
            .chain([ReduceOp::LogSumExp, ReduceOp::AMinMax])
            .collect(),
        _ => ReduceOp::ALL
            .into_iter()
            .filter(|&o| o != ReduceOp::Dot)
            .collect(),
    };
    for op in ops {
        for dtype in DType::ALL.into_iter().filter(|&d| op.accepts(d)) {
            pairs += 1;
            for (i, (name, shape, axes)) in layouts(op, dtype, kind).into_iter().enumerate() {
                // The whole array always; the other layouts sampled for the basic nine (the
                // further operations' layouts run natively, and Tint compiles every variant).
                if i > 0 && (!ReduceOp::BASIC.contains(&op) || !crate::keep_case(&mut rng)) {
                    continue;
                }
                let keepdim = name.starts_with("keepdim");
                let red = Reduction::new(op).axes(axes).keepdim(keepdim);
                let mut red = if matches!(op, ReduceOp::Var | ReduceOp::Std) {
                    red.correction(rng.gen_range(0..2))
                } else {
                    red
                };
                red.p = rng.gen_range(0.5..4.0);
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
    assert_eq!(counts.len(), pairs, "every operation x type ran");
    // Dot products: whole arrays and rows, every type.
    let mut dots = 0;
    for dtype in DType::ALL {
        for (shape, axes) in [(vec![100_003], Axes::All), (vec![37, 1000], Axes::from(1))] {
            dots += dot_case(&ctx, &mut rng, dtype, &shape, axes).await;
        }
    }
    console_log!("{test}: {dots} dot products checked");
    assert_eq!(dots, 2 * DType::ALL.len());
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
        rec.max(&x, .., false).unwrap(),
        rec.min(&x, .., false).unwrap(),
        rec.max(&y, .., false).unwrap(),
        rec.min(&y, .., false).unwrap(),
    ];
    let a = [
        rec.argmax(&x, .., false).unwrap(),
        rec.argmax(&y, .., false).unwrap(),
        rec.argmin(&y, .., false).unwrap(),
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
