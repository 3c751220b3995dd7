//! The radix sort in the browser: f32 keys with NaN, ±inf, ±0 and ties, i32 and u32 keys, at
//! lengths around the tile; sort, argsort (the stable order) and pairs, both directions, in one
//! await each, against a stable CPU sort.

use rand::Rng;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};
use wgpu_reduce::{Context, Element, Sort};

/// Checks sort, argsort and pairs of `keys` against the stable order `cmp` gives.
async fn check<T: Element + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    keys: &[T],
    cmp: fn(&T, &T) -> std::cmp::Ordering,
    bits: fn(T) -> u32,
) {
    let x = ctx.upload(keys).unwrap();
    let values: Vec<u32> = (0..keys.len() as u32)
        .map(|i| i.wrapping_mul(2654435761))
        .collect();
    let v = ctx.upload(&values).unwrap();
    for descending in [false, true] {
        let sort = Sort::new().descending(descending);
        let (sorted, order, (_, pv)) = ctx
            .run_async(|rec| {
                Ok((
                    rec.sort(&x, &sort)?,
                    rec.argsort(&x, &sort)?,
                    rec.sort_pairs(&x, &v, &sort)?,
                ))
            })
            .await
            .unwrap();
        let mut want: Vec<u32> = (0..keys.len() as u32).collect();
        want.sort_by(|&a, &b| {
            let o = cmp(&keys[a as usize], &keys[b as usize]);
            if descending {
                o.reverse()
            } else {
                o
            }
        });
        assert_eq!(
            order,
            want,
            "{} keys, descending {descending}: argsort",
            keys.len()
        );
        let got: Vec<u32> = sorted.into_iter().map(bits).collect();
        let expected: Vec<u32> = want.iter().map(|&i| bits(keys[i as usize])).collect();
        assert_eq!(got, expected, "{} keys: sorted", keys.len());
        let expected: Vec<u32> = want.iter().map(|&i| values[i as usize]).collect();
        assert_eq!(pv, expected, "{} keys: values of the pairs", keys.len());
    }
}

fn total(x: &f32) -> f32 {
    if x.is_nan() {
        f32::NAN
    } else {
        *x
    }
}

#[wasm_bindgen_test]
async fn radix_sort_against_a_stable_cpu_sort() {
    let ctx = crate::ctx().await;
    let mut rng = crate::rng("radix_sort_against_a_stable_cpu_sort");
    let special = [
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
        1e-40,
        1.0,
    ];
    let mut checked = 0;
    for n in [1usize, 1023, 1025, 5000] {
        let f: Vec<f32> = (0..n)
            .map(|_| {
                if rng.gen_bool(0.2) {
                    special[rng.gen_range(0..special.len())]
                } else {
                    rng.gen_range(-100.0f32..100.0).round()
                }
            })
            .collect();
        check(&ctx, &f, |a, b| total(a).total_cmp(&total(b)), f32::to_bits).await;
        let i: Vec<i32> = (0..n).map(|_| rng.gen_range(-1000..1000) * 65537).collect();
        check(&ctx, &i, |a, b| a.cmp(b), |v| v as u32).await;
        let u: Vec<u32> = (0..n).map(|_| rng.gen()).collect();
        check(&ctx, &u, |a, b| a.cmp(b), |v| v).await;
        checked += 3;
    }
    // Along rows: 40 rows of 300 keys, argsort within each row.
    let keys: Vec<f32> = (0..12_000)
        .map(|_| rng.gen_range(-50.0f32..50.0).round())
        .collect();
    let x = ctx.upload_shaped(&keys, &[40, 300]).unwrap();
    let order = ctx
        .run_async(|rec| rec.argsort(&x, &Sort::new()))
        .await
        .unwrap();
    for (r, row) in keys.chunks(300).enumerate() {
        let mut want: Vec<u32> = (0..300).collect();
        want.sort_by(|&a, &b| row[a as usize].total_cmp(&row[b as usize]));
        assert_eq!(&order[r * 300..(r + 1) * 300], &want[..], "row {r}");
    }
    checked += 1;
    console_log!("radix sort: {checked} cases checked");
    assert_eq!(checked, 13);
}
