//! Compaction, partition, nonzero, runs, unique values and histograms against CPU references,
//! on u32, i32, f32, f16 and bf16 arrays drawn fresh (seeded and printed) with adversarial
//! patterns (NaN of both signs, ±inf, ±0, subnormals, many equal elements, every element equal)
//! and masks (all kept, none, alternating, sparse, long runs, random words that are not 0 or
//! 1), lengths 0, 1, primes and around the 4,096-element tiles. Elements are compared bit for bit
//! and counts exactly, and every result comes from a context whose temporaries and results are
//! poisoned, so a place not written is caught.

mod common;

use common::keys::{reference, Key, Pattern};
use common::{rng, Sweep};
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::half::{bf16, f16};
use wgpu_reduce::{Cmp, Context, DType, Error};

/// Lengths around the tiles of 4,096 and the scatter's rounds of 1,024.
const LENGTHS: [usize; 11] = [0, 1, 2, 3, 1023, 1025, 4095, 4096, 4097, 10007, 100003];

fn draw<T: Key>(rng: &mut StdRng, n: usize, pattern: Pattern) -> Vec<T> {
    (0..n).map(|_| T::draw(rng, pattern)).collect()
}

/// An element as f32 (floats), for value comparisons.
fn value_of<T: Key>(x: T) -> Option<f32> {
    let bits = x.bits();
    match T::DTYPE {
        DType::F32 => Some(f32::from_bits(bits)),
        DType::F16 => Some(f16::from_bits(bits as u16).to_f32()),
        DType::BF16 => Some(bf16::from_bits(bits as u16).to_f32()),
        _ => None,
    }
}

/// Whether two elements are one value: floats as values (-0.0 equals +0.0, NaN equals
/// nothing), integers bit for bit.
fn same<T: Key>(a: T, b: T) -> bool {
    match (value_of(a), value_of(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a.bits() == b.bits(),
    }
}

fn is_zero<T: Key>(x: T) -> bool {
    match value_of(x) {
        Some(v) => v == 0.0,
        None => x.bits() == 0,
    }
}

fn bits<T: Key>(x: &[T]) -> Vec<u32> {
    x.iter().map(|&k| k.bits()).collect()
}

/// Masks of `n` words: the kinds a compaction must get right.
fn masks(rng: &mut StdRng, n: usize) -> Vec<(&'static str, Vec<u32>)> {
    vec![
        ("half", (0..n).map(|_| rng.gen_range(0..2)).collect()),
        ("all", vec![1; n]),
        ("none", vec![0; n]),
        ("alternating", (0..n).map(|i| (i % 2) as u32).collect()),
        (
            "sparse",
            (0..n).map(|_| u32::from(rng.gen_bool(0.01))).collect(),
        ),
        ("runs", (0..n).map(|i| ((i / 777) % 2) as u32).collect()),
        (
            "words",
            (0..n)
                .map(|_| if rng.gen_bool(0.5) { rng.gen() } else { 0 })
                .collect(),
        ),
    ]
}

/// Compaction and partition of arrays of one type under every kind of mask.
fn compaction<T: Key>(name: &'static str) -> usize {
    let ctx = common::poisoned_context();
    let mut rng = rng(name);
    let mut sweep = Sweep::new(name);
    for n in LENGTHS {
        let x: Vec<T> = draw(&mut rng, n, Pattern::Random);
        let gx = ctx.upload(&x).unwrap();
        for (kind, mask) in masks(&mut rng, n) {
            let what = format!("{} n={n} mask {kind}", T::DTYPE);
            if !sweep.keep(&what, &mut rng) {
                continue;
            }
            let gm = ctx.upload(&mask).unwrap();
            let (kept, (parts, count)) = ctx
                .run(|rec| Ok((rec.compact(&gx, &gm)?, rec.partition(&gx, &gm)?)))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let want: Vec<T> = (0..n).filter(|&i| mask[i] != 0).map(|i| x[i]).collect();
            let rest = (0..n).filter(|&i| mask[i] == 0).map(|i| x[i]);
            let want_parts: Vec<T> = want.iter().copied().chain(rest).collect();
            assert_eq!(bits(&kept), bits(&want), "{what}: compact");
            assert_eq!(count, vec![want.len() as u32], "{what}: partition's count");
            assert_eq!(bits(&parts), bits(&want_parts), "{what}: partition");
        }
    }
    sweep.finish()
}

#[test]
fn compaction_keeps_the_masked_elements_in_order() {
    let n = compaction::<u32>("compaction u32")
        + compaction::<i32>("compaction i32")
        + compaction::<f32>("compaction f32")
        + compaction::<f16>("compaction f16")
        + compaction::<bf16>("compaction bf16");
    println!("{n} compactions and partitions checked");
}

/// Row-major coordinates of flat index `i` in `shape`.
fn coords(mut i: usize, shape: &[usize]) -> Vec<u32> {
    let mut c = vec![0u32; shape.len()];
    for d in (0..shape.len()).rev() {
        c[d] = (i % shape[d]) as u32;
        i /= shape[d];
    }
    c
}

fn nonzero_of<T: Key>(rng: &mut StdRng, ctx: &Context, sweep: &mut Sweep) {
    let shapes: [&[usize]; 7] = [
        &[0],
        &[7],
        &[3, 5],
        &[2, 0, 3],
        &[2, 3, 4, 5],
        &[2, 1, 3, 1, 2, 3, 2],
        &[5, 4099],
    ];
    for shape in shapes {
        for pattern in [Pattern::Random, Pattern::Few, Pattern::Two] {
            let n: usize = shape.iter().product();
            let x: Vec<T> = draw(rng, n, pattern);
            let what = format!("{} {shape:?} {pattern:?}", T::DTYPE);
            if !sweep.keep(&what, rng) {
                continue;
            }
            let gx = ctx.upload_shaped(&x, shape).unwrap();
            let (flat, per_dim) = ctx
                .run(|rec| Ok((rec.flatnonzero(&gx)?, rec.nonzero(&gx)?)))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let want: Vec<usize> = (0..n).filter(|&i| !is_zero(x[i])).collect();
            let want_flat: Vec<u32> = want.iter().map(|&i| i as u32).collect();
            let want_dims: Vec<u32> = want.iter().flat_map(|&i| coords(i, shape)).collect();
            assert_eq!(flat, want_flat, "{what}: flatnonzero");
            assert_eq!(per_dim, want_dims, "{what}: nonzero");
        }
    }
}

#[test]
fn nonzero_gives_flat_indices_and_coordinates() {
    let ctx = common::poisoned_context();
    let mut rng = rng("nonzero");
    let mut sweep = Sweep::new("nonzero");
    nonzero_of::<f32>(&mut rng, &ctx, &mut sweep);
    nonzero_of::<i32>(&mut rng, &ctx, &mut sweep);
    nonzero_of::<u32>(&mut rng, &ctx, &mut sweep);
    nonzero_of::<f16>(&mut rng, &ctx, &mut sweep);
    nonzero_of::<bf16>(&mut rng, &ctx, &mut sweep);
    sweep.finish();
}

#[test]
fn a_compacted_array_goes_on_to_later_operations_on_the_gpu() {
    let ctx = common::poisoned_context();
    let mut rng = rng("fill_rest");
    for n in [1usize, 4097, 100003] {
        let x: Vec<f32> = (0..n)
            .map(|_| rng.gen_range(-8.0f32..8.0).round())
            .collect();
        let mask: Vec<u32> = (0..n).map(|_| rng.gen_range(0..2)).collect();
        let (gx, gm) = (ctx.upload(&x).unwrap(), ctx.upload(&mask).unwrap());
        let (sum, max, all, count) = ctx
            .run(|rec| {
                let kept = rec.compact(&gx, &gm)?;
                let zeros = rec.fill_rest(&kept, 0.0)?;
                let sum = rec.sum(&zeros, .., false)?;
                let lows = rec.fill_rest(&kept, f32::NEG_INFINITY)?;
                let max = rec.max(&lows, .., false)?;
                Ok((sum, max, lows.clone(), kept.count().clone()))
            })
            .unwrap();
        let want: Vec<f32> = (0..n).filter(|&i| mask[i] != 0).map(|i| x[i]).collect();
        // Integers in [-8, 8]: every partial sum is exact in f32.
        assert_eq!(sum, vec![want.iter().sum::<f32>()], "n={n}: sum");
        let want_max = want.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(max, vec![want_max], "n={n}: max");
        assert_eq!(count, vec![want.len() as u32], "n={n}: count");
        assert_eq!(&all[..want.len()], &want[..], "n={n}: kept");
        assert!(
            all[want.len()..].iter().all(|&v| v == f32::NEG_INFINITY),
            "n={n}: filled"
        );
    }
    // 16-bit: an odd count leaves half a word to keep and half to fill.
    let x: Vec<f16> = (0..9).map(|i| f16::from_f32(i as f32 + 1.0)).collect();
    let mask = [1u32, 0, 1, 1, 0, 0, 1, 0, 1];
    let (gx, gm) = (ctx.upload(&x).unwrap(), ctx.upload(&mask).unwrap());
    let all = ctx
        .run(|rec| {
            let kept = rec.compact(&gx, &gm)?;
            rec.fill_rest(&kept, f16::from_f32(-7.0))
        })
        .unwrap();
    let want: Vec<f32> = vec![1.0, 3.0, 4.0, 7.0, 9.0, -7.0, -7.0, -7.0, -7.0];
    assert_eq!(all.iter().map(|v| v.to_f32()).collect::<Vec<_>>(), want);
    // Rows of coordinates: the count is of rows.
    let x = ctx.upload_shaped(&[0i32, 5, 0, 0, 7, 1], &[3, 2]).unwrap();
    let coords = ctx
        .run(|rec| {
            let at = rec.nonzero(&x)?;
            rec.fill_rest(&at, u32::MAX)
        })
        .unwrap();
    let m = u32::MAX;
    assert_eq!(coords, vec![0, 1, 2, 0, 2, 1, m, m, m, m, m, m]);
}

/// Runs of `x` by value: (first element, length).
fn runs<T: Key>(x: &[T]) -> Vec<(T, u32)> {
    let mut out: Vec<(T, u32)> = vec![];
    for &v in x {
        match out.last_mut() {
            Some((first, len)) if same(*first, v) => *len += 1,
            _ => out.push((v, 1)),
        }
    }
    out
}

/// Run-length encoding, unique_consecutive and the sorted unique values (with counts, the
/// inverse, and all of them with the first indices) of arrays of one type.
fn runs_and_unique<T: Key>(name: &'static str) -> usize {
    let ctx = common::poisoned_context();
    let mut rng = rng(name);
    let mut sweep = Sweep::new(name);
    for n in LENGTHS {
        for pattern in [Pattern::Random, Pattern::Few, Pattern::Two, Pattern::Equal] {
            let x: Vec<T> = draw(&mut rng, n, pattern);
            let what = format!("{} n={n} {pattern:?}", T::DTYPE);
            if !sweep.keep(&what, &mut rng) {
                continue;
            }
            let gx = ctx.upload(&x).unwrap();
            let (consecutive, (values, lengths), unique, (uv, counts), (iv, inverse), all) = ctx
                .run(|rec| {
                    Ok((
                        rec.unique_consecutive(&gx)?,
                        rec.run_lengths(&gx)?,
                        rec.unique_values(&gx)?,
                        rec.unique_counts(&gx)?,
                        rec.unique_inverse(&gx)?,
                        rec.unique_all(&gx)?,
                    ))
                })
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let want = runs(&x);
            let firsts: Vec<T> = want.iter().map(|r| r.0).collect();
            assert_eq!(
                bits(&consecutive),
                bits(&firsts),
                "{what}: unique_consecutive"
            );
            assert_eq!(bits(&values), bits(&firsts), "{what}: run values");
            let want_lengths: Vec<u32> = want.iter().map(|r| r.1).collect();
            assert_eq!(lengths, want_lengths, "{what}: run lengths");
            // Sorted: the stable order's runs.
            let order = reference(&x, false);
            let sorted: Vec<T> = order.iter().map(|&i| x[i as usize]).collect();
            let want = runs(&sorted);
            let firsts: Vec<T> = want.iter().map(|r| r.0).collect();
            assert_eq!(bits(&unique), bits(&firsts), "{what}: unique_values");
            assert_eq!(bits(&uv), bits(&firsts), "{what}: unique_counts values");
            assert_eq!(bits(&iv), bits(&firsts), "{what}: unique_inverse values");
            let want_counts: Vec<u32> = want.iter().map(|r| r.1).collect();
            assert_eq!(counts, want_counts, "{what}: unique_counts");
            let mut want_inverse = vec![0u32; n];
            let mut run = 0u32;
            for (p, &i) in order.iter().enumerate() {
                if p > 0 && !same(sorted[p - 1], sorted[p]) {
                    run += 1;
                }
                want_inverse[i as usize] = run;
            }
            assert_eq!(inverse, want_inverse, "{what}: unique_inverse");
            let (av, first, ai, ac) = all;
            assert_eq!(bits(&av), bits(&firsts), "{what}: unique_all values");
            assert_eq!(ai, want_inverse, "{what}: unique_all inverse");
            assert_eq!(ac, want_counts, "{what}: unique_all counts");
            // The first occurrence of each value: where its run starts in the stable order.
            let mut want_first = vec![];
            for (p, &i) in order.iter().enumerate() {
                if p == 0 || !same(sorted[p - 1], sorted[p]) {
                    want_first.push(i);
                }
            }
            assert_eq!(first, want_first, "{what}: unique_all first indices");
        }
    }
    sweep.finish()
}

#[test]
fn runs_and_unique_values_match_the_reference() {
    let n = runs_and_unique::<u32>("unique u32")
        + runs_and_unique::<i32>("unique i32")
        + runs_and_unique::<f32>("unique f32")
        + runs_and_unique::<f16>("unique f16")
        + runs_and_unique::<bf16>("unique bf16");
    println!("{n} run and unique cases checked");
}

/// torch.histc's rule with the factor computed once in f32.
fn histogram_ref(x: &[f32], bins: usize, lo: f32, hi: f32) -> Vec<u32> {
    let scale = bins as f32 / (hi - lo);
    let mut out = vec![0u32; bins];
    for &v in x {
        if v >= lo && v <= hi {
            out[(((v - lo) * scale) as usize).min(bins - 1)] += 1;
        }
    }
    out
}

/// Values for a histogram over [lo, hi]: inside, on every bin edge, at both ends, outside,
/// NaN and ±inf (no subnormals: a GPU may flush them to zero).
fn histogram_values(rng: &mut StdRng, n: usize, bins: usize, lo: f32, hi: f32) -> Vec<f32> {
    let width = (hi - lo) / bins as f32;
    (0..n)
        .map(|_| match rng.gen_range(0..10) {
            0 => lo + width * rng.gen_range(0..=bins) as f32,
            1 => [lo, hi, f32::NAN, f32::INFINITY, f32::NEG_INFINITY][rng.gen_range(0..5)],
            2 => rng.gen_range(hi..hi + 10.0),
            3 => rng.gen_range(lo - 10.0..lo),
            _ => rng.gen_range(lo..hi),
        })
        .collect()
}

fn histograms<T: Key>(rng: &mut StdRng, ctx: &Context, from: fn(f32) -> T, sweep: &mut Sweep) {
    for (bins, lo, hi) in [
        (1usize, -1.0f32, 1.0f32),
        (3, 0.0, 3.0),
        (256, -2.5, 6.0),
        (2048, 0.0, 1.0),
        (2049, -100.0, 100.0),
        (65536, 0.0, 65536.0),
    ] {
        for shape in [
            vec![0usize],
            vec![1],
            vec![100003],
            vec![7, 5000],
            vec![300, 17],
        ] {
            let n: usize = shape.iter().product();
            let x: Vec<T> = histogram_values(rng, n, bins, lo, hi)
                .into_iter()
                .map(from)
                .collect();
            let what = format!("{} {shape:?} bins={bins} [{lo}, {hi}]", T::DTYPE);
            if !sweep.keep(&what, rng) {
                continue;
            }
            let gx = ctx.upload_shaped(&x, &shape).unwrap();
            let (whole, rows) = ctx
                .run(|rec| {
                    Ok((
                        rec.histogram(&gx, bins, lo, hi)?,
                        rec.histogram_rows(&gx, bins, lo, hi)?,
                    ))
                })
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let values: Vec<f32> = x.iter().map(|&v| value_of(v).unwrap()).collect();
            assert_eq!(whole, histogram_ref(&values, bins, lo, hi), "{what}: whole");
            let len = *shape.last().unwrap();
            // A row of no elements (shape [0]) counts nothing in each bin.
            let want: Vec<u32> = if len == 0 {
                vec![0; bins]
            } else {
                values
                    .chunks(len)
                    .flat_map(|row| histogram_ref(row, bins, lo, hi))
                    .collect()
            };
            assert_eq!(rows, want, "{what}: rows");
        }
    }
}

#[test]
fn histograms_follow_histc() {
    let ctx = common::poisoned_context();
    let mut rng = rng("histogram");
    let mut sweep = Sweep::new("histogram");
    histograms::<f32>(&mut rng, &ctx, |v| v, &mut sweep);
    histograms::<f16>(&mut rng, &ctx, f16::from_f32, &mut sweep);
    histograms::<bf16>(&mut rng, &ctx, bf16::from_f32, &mut sweep);
    sweep.finish();
}

fn bincounts<T: Key>(rng: &mut StdRng, ctx: &Context, from: fn(u32) -> T, sweep: &mut Sweep) {
    for length in [1usize, 5, 1000, 2048, 2049, 70000] {
        for shape in [
            vec![0usize],
            vec![1],
            vec![100003],
            vec![7, 5000],
            vec![300, 17],
        ] {
            let n: usize = shape.iter().product();
            // Few distinct values (one in eight of them all one value), the rest uniform.
            let raw: Vec<u32> = (0..n)
                .map(|_| match rng.gen_range(0..8) {
                    0 => (length - 1) as u32,
                    1 => 0,
                    _ => rng.gen_range(0..length as u32),
                })
                .collect();
            let x: Vec<T> = raw.iter().map(|&v| from(v)).collect();
            let what = format!("{} {shape:?} length={length}", T::DTYPE);
            if !sweep.keep(&what, rng) {
                continue;
            }
            let gx = ctx.upload_shaped(&x, &shape).unwrap();
            let (whole, rows) = ctx
                .run(|rec| Ok((rec.bincount(&gx, length)?, rec.bincount_rows(&gx, length)?)))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let count = |vals: &[u32]| {
                let mut c = vec![0u32; length];
                for &v in vals {
                    c[v as usize] += 1;
                }
                c
            };
            assert_eq!(whole, count(&raw), "{what}: whole");
            let len = *shape.last().unwrap();
            let want: Vec<u32> = if len == 0 {
                vec![0; length]
            } else {
                raw.chunks(len).flat_map(count).collect()
            };
            assert_eq!(rows, want, "{what}: rows");
        }
    }
}

#[test]
fn bincount_counts_each_value() {
    let ctx = common::poisoned_context();
    let mut rng = rng("bincount");
    let mut sweep = Sweep::new("bincount");
    bincounts::<u32>(&mut rng, &ctx, |v| v, &mut sweep);
    bincounts::<i32>(&mut rng, &ctx, |v| v as i32, &mut sweep);
    sweep.finish();
}

#[test]
fn values_bincount_does_not_take_are_errors_found_on_the_gpu() {
    let ctx = common::ctx();
    let mut rng = rng("bincount errors");
    let n = 50000;
    for bad in [0usize, 4095, 4096, 49999] {
        // The lowest index of a value outside 0..10 is reported, negative or too large.
        let mut x: Vec<i32> = (0..n).map(|_| rng.gen_range(0..10)).collect();
        x[bad] = -1;
        if bad + 10 < n {
            x[bad + 10] = 10;
        }
        let gx = ctx.upload(&x).unwrap();
        match ctx.run(|rec| rec.bincount(&gx, 10)) {
            Err(Error::InvalidValue { op, index, .. }) => {
                assert_eq!((op, index), ("bincount", bad));
            }
            other => panic!("a negative value at {bad}: {other:?}"),
        }
        let y: Vec<u32> = x.iter().map(|&v| v.max(0) as u32).collect();
        let mut y = y;
        y[bad] = 10;
        let gy = ctx.upload(&y).unwrap();
        let e = ctx.run(|rec| rec.bincount(&gy, 10)).unwrap_err();
        assert!(
            matches!(e, Error::InvalidValue { index, .. } if index == bad),
            "{e}"
        );
        assert!(e.to_string().contains("0..length"), "{e}");
    }
    // The same recording's other results are not returned with the error; a valid one runs.
    let gx = ctx.upload(&[1u32, 2, 2]).unwrap();
    assert_eq!(ctx.run(|rec| rec.bincount(&gx, 3)).unwrap(), vec![0, 1, 2]);
}

#[test]
fn wrong_inputs_are_typed_errors() {
    let ctx = common::ctx();
    let x = ctx.upload(&[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let mask = ctx.upload(&[1u32, 0, 1]).unwrap();
    let e = ctx.run(|rec| rec.compact(&x, &mask)).unwrap_err();
    assert!(
        matches!(e, Error::InputsDiffer { op: "compact", .. }),
        "{e}"
    );
    let e = ctx.run(|rec| rec.partition(&x, &mask)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InputsDiffer {
                op: "partition",
                ..
            }
        ),
        "{e}"
    );
    for (bins, lo, hi) in [
        (0usize, 0.0f32, 1.0f32),
        (4, 1.0, 1.0),
        (4, 2.0, 1.0),
        (4, f32::NAN, 1.0),
        (4, 0.0, f32::INFINITY),
        (4, -3e38, 3e38),
    ] {
        let e = ctx.run(|rec| rec.histogram(&x, bins, lo, hi)).unwrap_err();
        assert!(
            matches!(e, Error::InvalidParameter { .. }),
            "{bins} [{lo}, {hi}]: {e}"
        );
    }
    let ints = ctx.upload(&[1i32, 2]).unwrap();
    let e = ctx
        .run(|rec| rec.histogram(&ints, 4, 0.0, 1.0))
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::UnsupportedInput {
                op: "histogram",
                ..
            }
        ),
        "{e}"
    );
    let e = ctx.run(|rec| rec.bincount(&x, 4)).unwrap_err();
    assert!(
        matches!(e, Error::UnsupportedInput { op: "bincount", .. }),
        "{e}"
    );
    let e = ctx.run(|rec| rec.bincount(&ints, 0)).unwrap_err();
    assert!(
        matches!(e, Error::InvalidParameter { name: "length", .. }),
        "{e}"
    );
    assert!(e.to_string().contains("1 <= length"), "{e}");
}

/// Whether `x cmp v` holds: floats as f32 values (NaN unequal to everything), integers as
/// their type.
fn holds<T: Key>(x: T, cmp: Cmp, v: T) -> bool {
    use std::cmp::Ordering;
    let order = match (value_of(x), value_of(v)) {
        (Some(a), Some(b)) => a.partial_cmp(&b),
        _ if T::DTYPE == DType::I32 => Some((x.bits() as i32).cmp(&(v.bits() as i32))),
        _ => Some(x.bits().cmp(&v.bits())),
    };
    match cmp {
        Cmp::Lt => order == Some(Ordering::Less),
        Cmp::Le => matches!(order, Some(Ordering::Less | Ordering::Equal)),
        Cmp::Gt => order == Some(Ordering::Greater),
        Cmp::Ge => matches!(order, Some(Ordering::Greater | Ordering::Equal)),
        Cmp::Eq => order == Some(Ordering::Equal),
        Cmp::Ne => order != Some(Ordering::Equal),
    }
}

fn comparisons<T: Key>(rng: &mut StdRng, ctx: &Context, sweep: &mut Sweep) {
    const CMPS: [Cmp; 6] = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne];
    for n in [1usize, 4097, 20011] {
        for pattern in [Pattern::Random, Pattern::Few] {
            let x: Vec<T> = draw(rng, n, pattern);
            let gx = ctx.upload(&x).unwrap();
            // Values from the data (equal elements exist), and specials of the type.
            let mut values = vec![x[rng.gen_range(0..n)], x[rng.gen_range(0..n)]];
            values.extend((0..3).map(|_| T::draw(rng, Pattern::Random)));
            for v in values {
                for cmp in CMPS {
                    let what = format!("{} n={n} {pattern:?} x {cmp:?} {v:?}", T::DTYPE);
                    if !sweep.keep(&what, rng) {
                        continue;
                    }
                    let (mask, kept) = ctx
                        .run(|rec| {
                            let mask = rec.compare(&gx, cmp, v)?;
                            let kept = rec.compact(&gx, &mask)?;
                            Ok((mask, kept))
                        })
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    let want: Vec<u32> = x.iter().map(|&e| u32::from(holds(e, cmp, v))).collect();
                    assert_eq!(mask, want, "{what}: mask");
                    let want_kept: Vec<T> =
                        (0..n).filter(|&i| want[i] == 1).map(|i| x[i]).collect();
                    assert_eq!(bits(&kept), bits(&want_kept), "{what}: x[x {cmp:?} v]");
                }
            }
        }
    }
}

#[test]
fn comparisons_make_masks_for_the_compaction() {
    let ctx = common::poisoned_context();
    let mut rng = rng("compare");
    let mut sweep = Sweep::scaled("compare", 0.25);
    comparisons::<f32>(&mut rng, &ctx, &mut sweep);
    comparisons::<i32>(&mut rng, &ctx, &mut sweep);
    comparisons::<u32>(&mut rng, &ctx, &mut sweep);
    comparisons::<f16>(&mut rng, &ctx, &mut sweep);
    comparisons::<bf16>(&mut rng, &ctx, &mut sweep);
    sweep.finish();
}

/// Weighted bincount of whole arrays and along rows against CPU sums (small
/// integer weights: every sum exact in f32), the same bits twice, and its errors.
#[test]
fn weighted_bincount_sums_each_values_weights() {
    let ctx = common::poisoned_context();
    let mut rng = rng("bincount_weighted");
    let mut checked = 0;
    for (n, length) in [
        (0usize, 3usize),
        (1, 1),
        (4097, 7),
        (100003, 1000),
        (30011, 5000),
    ] {
        let x: Vec<i32> = (0..n).map(|_| rng.gen_range(0..length as i32)).collect();
        // Small integers: every sum is exact in f32, whatever the order of the additions.
        let w: Vec<f32> = (0..n).map(|_| rng.gen_range(-8..=8) as f32).collect();
        let (gx, gw) = (ctx.upload(&x).unwrap(), ctx.upload(&w).unwrap());
        let got = ctx
            .run(|rec| rec.bincount_weighted(&gx, &gw, length))
            .unwrap();
        let mut want = vec![0.0f32; length];
        for (&v, &wt) in x.iter().zip(&w) {
            want[v as usize] += wt;
        }
        assert_eq!(got, want, "n={n} length={length}");
        // Any weights: the same bits on every run.
        let w: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
        let gw = ctx.upload(&w).unwrap();
        let a = ctx
            .run(|rec| rec.bincount_weighted(&gx, &gw, length))
            .unwrap();
        let b = ctx
            .run(|rec| rec.bincount_weighted(&gx, &gw, length))
            .unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a), bits(&b), "n={n} length={length}: twice");
        checked += 1;
    }
    assert_eq!(checked, 5);
    // Along rows: short rows (sorted a workgroup each), 130 rows of 1,100 (a workgroup per row
    // and digit pass), a few long rows (the passes over the whole array), and empty rows.
    for (shape, length) in [
        (vec![200usize, 50usize], 10usize),
        (vec![130, 1100], 300),
        (vec![3, 30011], 5000),
        (vec![2, 2, 700], 4),
        (vec![5, 0], 3),
    ] {
        let n: usize = shape.iter().product();
        let len = *shape.last().unwrap();
        let x: Vec<u32> = (0..n).map(|_| rng.gen_range(0..length as u32)).collect();
        let w: Vec<f32> = (0..n).map(|_| rng.gen_range(-8..=8) as f32).collect();
        let gx = ctx.upload_shaped(&x, &shape).unwrap();
        let gw = ctx.upload_shaped(&w, &shape).unwrap();
        let got = ctx
            .run(|rec| rec.bincount_weighted_rows(&gx, &gw, length))
            .unwrap();
        let rows = n
            .checked_div(len)
            .unwrap_or(shape[..shape.len() - 1].iter().product());
        let mut want = vec![0.0f32; rows * length];
        for (i, (&v, &wt)) in x.iter().zip(&w).enumerate() {
            want[i / len * length + v as usize] += wt;
        }
        assert_eq!(got, want, "rows {shape:?} length={length}");
        checked += 1;
    }
    assert_eq!(checked, 10);
    let gx = ctx.upload_shaped(&[0u32, 3, 1, 1], &[2, 2]).unwrap();
    let gw = ctx.upload_shaped(&[1.0f32; 4], &[2, 2]).unwrap();
    let e = ctx
        .run(|rec| rec.bincount_weighted_rows(&gx, &gw, 3))
        .unwrap_err();
    assert!(matches!(e, Error::InvalidValue { index: 1, .. }), "{e}");
    let gw3 = ctx.upload_shaped(&[1.0f32; 4], &[4, 1]).unwrap();
    let e = ctx
        .run(|rec| rec.bincount_weighted_rows(&gx, &gw3, 3))
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InputsDiffer {
                op: "bincount_weighted_rows",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("bincount_weighted_rows"), "{e}");
    let gx = ctx.upload(&[1i32, -4, 2]).unwrap();
    let gw = ctx.upload(&[1.0f32, 1.0, 1.0]).unwrap();
    let e = ctx
        .run(|rec| rec.bincount_weighted(&gx, &gw, 3))
        .unwrap_err();
    assert!(matches!(e, Error::InvalidValue { index: 1, .. }), "{e}");
    let gw2 = ctx.upload(&[1.0f32, 1.0]).unwrap();
    let e = ctx
        .run(|rec| rec.bincount_weighted(&gx, &gw2, 3))
        .unwrap_err();
    assert!(matches!(e, Error::InputsDiffer { .. }), "{e}");
    let e = ctx
        .run(|rec| rec.bincount_weighted(&gw, &gw, 3))
        .unwrap_err();
    assert!(matches!(e, Error::UnsupportedInput { .. }), "{e}");
}
