//! Selecting and counting in the browser: compaction and partition of f32 under a random mask,
//! nonzero of a 2-D array, run lengths and unique values with counts and inverse of i32, and a
//! histogram and a bincount, at lengths around the 4,096-element tiles, in one await each,
//! against CPU references (NaN, ±inf and ±0 among the floats).

use rand::Rng;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
async fn compaction_runs_unique_and_histograms_against_the_cpu() {
    let ctx = crate::ctx().await;
    let mut rng = crate::rng("compaction_runs_unique_and_histograms_against_the_cpu");
    let special = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0];
    let mut checked = 0;
    for n in [1usize, 4095, 4097, 20011] {
        let x: Vec<f32> = (0..n)
            .map(|_| {
                if rng.gen_bool(0.2) {
                    special[rng.gen_range(0..special.len())]
                } else {
                    rng.gen_range(-4.0f32..4.0).round()
                }
            })
            .collect();
        let mask: Vec<u32> = (0..n).map(|_| rng.gen_range(0..2)).collect();
        let ints: Vec<i32> = (0..n).map(|_| rng.gen_range(-3..4)).collect();
        let small: Vec<u32> = (0..n).map(|_| rng.gen_range(0..50)).collect();
        let rows = if n % 2 == 0 { 2 } else { 1 };
        let gx = ctx.upload_shaped(&x, &[rows, n / rows]).unwrap();
        let gm = ctx.upload_shaped(&mask, &[rows, n / rows]).unwrap();
        let gi = ctx.upload(&ints).unwrap();
        let gs = ctx.upload(&small).unwrap();
        let (
            (kept, (parts, count), at),
            ((runs, lengths), (uniq, counts), (_, inverse)),
            (hist, bins),
        ) = ctx
            .run_async(|rec| {
                Ok((
                    (
                        rec.compact(&gx, &gm)?,
                        rec.partition(&gx, &gm)?,
                        rec.nonzero(&gx)?,
                    ),
                    (
                        rec.run_lengths(&gi)?,
                        rec.unique_counts(&gi)?,
                        rec.unique_inverse(&gi)?,
                    ),
                    (rec.histogram(&gx, 8, -4.0, 4.0)?, rec.bincount(&gs, 50)?),
                ))
            })
            .await
            .unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
        let want: Vec<f32> = (0..n).filter(|&i| mask[i] != 0).map(|i| x[i]).collect();
        let rest = (0..n).filter(|&i| mask[i] == 0).map(|i| x[i]);
        let want_parts: Vec<f32> = want.iter().copied().chain(rest).collect();
        assert_eq!(bits(&kept), bits(&want), "n={n}: compact");
        assert_eq!(bits(&parts), bits(&want_parts), "n={n}: partition");
        assert_eq!(count, vec![want.len() as u32], "n={n}: count");
        let cols = n / rows;
        let want_at: Vec<u32> = (0..n)
            .filter(|&i| x[i] != 0.0)
            .flat_map(|i| [(i / cols) as u32, (i % cols) as u32])
            .collect();
        assert_eq!(at, want_at, "n={n}: nonzero");
        let mut want_runs: Vec<(i32, u32)> = vec![];
        for &v in &ints {
            match want_runs.last_mut() {
                Some((w, len)) if *w == v => *len += 1,
                _ => want_runs.push((v, 1)),
            }
        }
        assert_eq!(
            runs,
            want_runs.iter().map(|r| r.0).collect::<Vec<_>>(),
            "n={n}: runs"
        );
        assert_eq!(
            lengths,
            want_runs.iter().map(|r| r.1).collect::<Vec<_>>(),
            "n={n}: lengths"
        );
        let mut sorted = ints.clone();
        sorted.sort_unstable();
        let mut want_uniq = sorted.clone();
        want_uniq.dedup();
        let want_counts: Vec<u32> = want_uniq
            .iter()
            .map(|u| ints.iter().filter(|&&v| v == *u).count() as u32)
            .collect();
        assert_eq!(
            (uniq, counts),
            (want_uniq.clone(), want_counts),
            "n={n}: unique"
        );
        let want_inverse: Vec<u32> = ints
            .iter()
            .map(|v| want_uniq.binary_search(v).unwrap() as u32)
            .collect();
        assert_eq!(inverse, want_inverse, "n={n}: inverse");
        let mut want_hist = vec![0u32; 8];
        for &v in &x {
            if (-4.0..=4.0).contains(&v) {
                want_hist[(((v + 4.0) * 1.0) as usize).min(7)] += 1;
            }
        }
        assert_eq!(hist, want_hist, "n={n}: histogram");
        let mut want_bins = vec![0u32; 50];
        for &v in &small {
            want_bins[v as usize] += 1;
        }
        assert_eq!(bins, want_bins, "n={n}: bincount");
        checked += 1;
    }
    assert_eq!(checked, 4);
    console_log!(
        "{checked} lengths checked: compaction, partition, nonzero, runs, unique, histograms"
    );
}
