//! The radix sort in the browser: f32 keys with NaN, ±inf, ±0 and ties, i32 and u32 keys, at
//! lengths around the tile; sort, argsort (the stable order) and pairs, both directions, in one
//! await each, against a stable CPU sort; top-k and kthvalue of f32 with the same specials, of
//! one row and of rows; and the time of a sort of 2^20 u32 keys (the first call, compiling,
//! then the median of five, each one `run_async`).

use rand::Rng;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};
use wgpu_reduce::{Context, Element, Sort, TopK};

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

#[wasm_bindgen_test]
async fn topk_and_kthvalue_against_a_stable_cpu_sort() {
    let ctx = crate::ctx().await;
    let mut rng = crate::rng("topk_and_kthvalue_against_a_stable_cpu_sort");
    let special = [
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.0,
        -0.0,
    ];
    let keys: Vec<f32> = (0..12_000)
        .map(|_| {
            if rng.gen_bool(0.1) {
                special[rng.gen_range(0..special.len())]
            } else {
                rng.gen_range(-50.0f32..50.0).round()
            }
        })
        .collect();
    let order = |row: &[f32], largest: bool| {
        let mut idx: Vec<u32> = (0..row.len() as u32).collect();
        idx.sort_by(|&a, &b| {
            let o = total(&row[a as usize]).total_cmp(&total(&row[b as usize]));
            if largest {
                o.reverse()
            } else {
                o
            }
        });
        idx
    };
    let mut checked = 0;
    for (shape, k) in [([1usize, 12_000], 100), ([40, 300], 7)] {
        let x = ctx.upload_shaped(&keys, &shape).unwrap();
        let ((tv, ti), (_, si), (kv, ki)) = ctx
            .run_async(|rec| {
                Ok((
                    rec.topk(&x, k, &TopK::new())?,
                    rec.topk(&x, k, &TopK::new().largest(false).sorted(false))?,
                    rec.kthvalue(&x, k, false)?,
                ))
            })
            .await
            .unwrap();
        for (r, row) in keys.chunks(shape[1]).enumerate() {
            let want = &order(row, true)[..k];
            assert_eq!(&ti[r * k..(r + 1) * k], want, "{shape:?} row {r}: top-k");
            for (j, &i) in want.iter().enumerate() {
                assert_eq!(tv[r * k + j].to_bits(), row[i as usize].to_bits());
            }
            let mut small = order(row, false)[..k].to_vec();
            let kth = small[k - 1];
            small.sort_unstable();
            assert_eq!(
                &si[r * k..(r + 1) * k],
                &small[..],
                "{shape:?} row {r}: smallest"
            );
            assert_eq!((ki[r], kv[r].to_bits()), (kth, row[kth as usize].to_bits()));
            checked += 1;
        }
    }
    console_log!("top-k: {checked} rows checked");
    assert_eq!(checked, 41);
}

/// The time of a sort of 2^20 u32 keys in the browser, reported (the first call compiles).
#[wasm_bindgen_test]
async fn time_of_a_sort_of_a_million_keys() {
    let ctx = crate::ctx().await;
    let mut rng = crate::rng("time_of_a_sort_of_a_million_keys");
    let keys: Vec<u32> = (0..1 << 20).map(|_| rng.gen()).collect();
    let x = ctx.upload(&keys).unwrap();
    let mut times = Vec::new();
    let mut sorted = Vec::new();
    for _ in 0..6 {
        let t = js_sys::Date::now();
        sorted = ctx
            .run_async(|rec| rec.sort(&x, &Sort::new()))
            .await
            .unwrap();
        times.push(js_sys::Date::now() - t);
    }
    let mut want = keys.clone();
    want.sort_unstable();
    assert_eq!(sorted, want);
    let first = times[0];
    let mut rest = times[1..].to_vec();
    rest.sort_by(f64::total_cmp);
    console_log!(
        "sort of 2^20 u32 keys in the browser: first call {first:.0} ms, then median {:.0} ms of 5 (host to host, one run_async each)",
        rest[2]
    );
}
