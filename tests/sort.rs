//! The radix sort against a stable CPU sort of the same keys: sort, argsort and key-value
//! pairs, ascending and descending, of u32, i32, f32, f16 and bf16 keys drawn fresh (seeded and
//! printed; 16-bit keys from all their bit patterns)
//! with adversarial patterns mixed in (NaN of both signs, ±inf, ±0, subnormals, the extremes,
//! all equal, two values, sorted and reversed input) at lengths around a round of the ranking
//! (256), the short rows' sort (1,024), the tile (2,048) and digit boundaries. Results are compared bit for bit (a sort moves the keys' own bits, NaN
//! payloads included), argsort's indices exactly (which checks stability), and every output
//! comes from a context whose temporaries and results are poisoned.

mod common;

use common::keys::{reference, Key, Pattern};
use common::{rng, Sweep};
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::half::{bf16, f16};
use wgpu_reduce::{Context, Element, Error, GpuArray, Sort};

/// Lengths: tiny, around a tile and a few tiles, primes, and one of a million.
const LENGTHS: [usize; 17] = [
    1,
    2,
    3,
    17,
    255,
    256,
    257,
    1023,
    1024,
    1025,
    2047,
    2048,
    2049,
    4097,
    65_537,
    100_003,
    1 << 20,
];

fn keys_of<T: Key>(rng: &mut StdRng, n: usize, pattern: Pattern, layout: usize) -> Vec<T> {
    let mut v: Vec<T> = (0..n).map(|_| T::draw(rng, pattern)).collect();
    match layout {
        1 => v.sort_by(T::order),
        2 => v.sort_by(|a, b| T::order(b, a)),
        _ => {}
    }
    v
}

/// The sort, the argsort and the sorted pairs of `x` (with `v`), recorded together and read in
/// one step.
#[allow(clippy::type_complexity)]
fn all_three<T: Key, V: Element>(
    ctx: &Context,
    x: &GpuArray<T>,
    v: &GpuArray<V>,
    sort: &Sort,
) -> (Vec<T>, Vec<u32>, (Vec<T>, Vec<V>)) {
    ctx.run(|rec| {
        Ok((
            rec.sort(x, sort)?,
            rec.argsort(x, sort)?,
            rec.sort_pairs(x, v, sort)?,
        ))
    })
    .unwrap_or_else(|e| panic!("{} {:?}: {e}", T::DTYPE, x.shape()))
}

/// Sorts, argsorts and sorts pairs of `keys` both ways, in one recording per direction, and
/// checks everything against the reference.
fn check<T: Key>(ctx: &Context, keys: &[T], values: &[u32], what: &str) {
    let x = ctx.upload(keys).unwrap();
    let v = ctx.upload(values).unwrap();
    for descending in [false, true] {
        let sort = Sort::new().descending(descending);
        let (sorted, order, (pk, pv)) = all_three(ctx, &x, &v, &sort);
        let want = reference(keys, descending);
        let what = format!("{what} descending={descending}");
        assert_eq!(order, want, "{what}: argsort (stable order)");
        let want_keys: Vec<u32> = want.iter().map(|&i| keys[i as usize].bits()).collect();
        let bits = |k: &[T]| k.iter().map(|&k| k.bits()).collect::<Vec<u32>>();
        assert_eq!(bits(&sorted), want_keys, "{what}: sorted keys");
        assert_eq!(bits(&pk), want_keys, "{what}: keys of the pairs");
        let want_values: Vec<u32> = want.iter().map(|&i| values[i as usize]).collect();
        assert_eq!(pv, want_values, "{what}: values of the pairs");
    }
}

fn sweep<T: Key>(name: &'static str) {
    let ctx = common::poisoned_context();
    let mut rng = rng(name);
    let mut sweep = Sweep::new(name);
    for n in LENGTHS {
        for pattern in [Pattern::Random, Pattern::Few, Pattern::Two, Pattern::Equal] {
            for layout in 0..3 {
                // Sorted and reversed inputs of the random pattern and a few lengths only.
                if layout > 0 && (pattern != Pattern::Random || n > 100_003) {
                    continue;
                }
                if !sweep.keep(format!("{pattern:?} {n}"), &mut rng) {
                    continue;
                }
                let keys: Vec<T> = keys_of(&mut rng, n, pattern, layout);
                let values: Vec<u32> = (0..n).map(|_| rng.gen()).collect();
                check(
                    &ctx,
                    &keys,
                    &values,
                    &format!("{name} n={n} {pattern:?} layout {layout}"),
                );
            }
        }
    }
    let checked = sweep.finish();
    assert!(checked >= 4, "{name}: {checked} cases checked");
}

/// The scatter's two rankings (subgroup ballots where the adapter's subgroups allow them, bit
/// masks in workgroup memory with subgroups off) and the count's two ways give the same stable
/// order: u32 keys of every pattern and f32 keys with many ties, at lengths around the tile.
#[test]
fn both_rankings_of_the_scatter() {
    let mut rng = rng("sort rankings");
    let (mut checked, mut rankings) = (0, 0);
    for subgroups in [wgpu_reduce::Subgroups::Off, wgpu_reduce::Subgroups::Auto] {
        let options = wgpu_reduce::ContextOptions::default()
            .with_subgroups(subgroups)
            .with_testing(wgpu_reduce::Testing::poisoned());
        let ctx = Context::with_options(options).unwrap();
        let caps = ctx.capabilities();
        let ranked_by_subgroups = ctx.tuning().subgroups
            && caps.subgroup_min_size >= wgpu_reduce::kernels::SORT_SUBGROUP_MIN
            && caps.subgroup_max_size <= wgpu_reduce::kernels::SORT_SUBGROUP_MAX;
        if subgroups == wgpu_reduce::Subgroups::Auto && !ranked_by_subgroups {
            // The sort takes the bit masks here too: Auto is the run above again.
            continue;
        }
        rankings += 1;
        for n in [2047, 2049, 6_001, 70_001] {
            for pattern in [Pattern::Random, Pattern::Few, Pattern::Two, Pattern::Equal] {
                let u: Vec<u32> = keys_of(&mut rng, n, pattern, 0);
                let f: Vec<f32> = keys_of(&mut rng, n, pattern, 0);
                let values: Vec<u32> = (0..n).map(|_| rng.gen()).collect();
                let what = format!("{subgroups:?} n={n} {pattern:?}");
                check(&ctx, &u, &values, &format!("u32 {what}"));
                check(&ctx, &f, &values, &format!("f32 {what}"));
                checked += 2;
            }
        }
    }
    assert_eq!(checked, 32 * rankings);
}

#[test]
fn sort_u32_keys() {
    sweep::<u32>("sort u32");
}

#[test]
fn sort_i32_keys() {
    sweep::<i32>("sort i32");
}

#[test]
fn sort_f32_keys() {
    sweep::<f32>("sort f32");
}

#[test]
fn sort_f16_keys() {
    sweep::<f16>("sort f16");
}

#[test]
fn sort_bf16_keys() {
    sweep::<bf16>("sort bf16");
}

/// Values of every 4-byte type move with their keys; an empty array sorts to an empty one.
#[test]
fn pairs_of_every_value_type_and_empty_arrays() {
    let ctx = common::poisoned_context();
    let mut rng = rng("sort pairs");
    let n = 5_000;
    let keys: Vec<i32> = (0..n).map(|_| rng.gen_range(-50..50)).collect();
    let want = reference(&keys, false);
    let x = ctx.upload(&keys).unwrap();
    let vf: Vec<f32> = (0..n).map(|_| rng.gen()).collect();
    let vi: Vec<i32> = (0..n).map(|_| rng.gen()).collect();
    let (a, b) = (ctx.upload(&vf).unwrap(), ctx.upload(&vi).unwrap());
    let ((_, gf), (_, gi)) = ctx
        .run(|rec| {
            Ok((
                rec.sort_pairs(&x, &a, &Sort::new())?,
                rec.sort_pairs(&x, &b, &Sort::new())?,
            ))
        })
        .unwrap();
    let pick = |v: &[u32]| want.iter().map(|&i| v[i as usize]).collect::<Vec<u32>>();
    let fb: Vec<u32> = vf.iter().map(|f| f.to_bits()).collect();
    assert_eq!(
        gf.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        pick(&fb)
    );
    assert_eq!(
        gi,
        want.iter().map(|&i| vi[i as usize]).collect::<Vec<i32>>()
    );
    let empty = ctx.upload::<f32>(&[]).unwrap();
    let (s, o) = ctx
        .run(|rec| {
            Ok((
                rec.sort(&empty, &Sort::new())?,
                rec.argsort(&empty, &Sort::new())?,
            ))
        })
        .unwrap();
    assert!(s.is_empty() && o.is_empty());
}

/// What a sort does not take is a typed error that says what is allowed.
#[test]
fn sort_errors() {
    let ctx = common::ctx();
    let h = ctx.upload(&[f16::from_f32(1.0); 4]).unwrap();
    let x = ctx.upload(&[3u32, 1, 2, 0]).unwrap();
    let e = ctx.recorder().sort_pairs(&x, &h, &Sort::new()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::UnsupportedInput {
                op: "sort_pairs (values)",
                ..
            }
        ) && e.to_string().contains("4-byte"),
        "{e}"
    );
    let short = ctx.upload(&[1u32, 2, 3]).unwrap();
    let e = ctx
        .recorder()
        .sort_pairs(&x, &short, &Sort::new())
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InputsDiffer {
                op: "sort_pairs",
                ..
            }
        ),
        "{e}"
    );
    let m: GpuArray<f32> = ctx.upload_shaped(&[1.0f32; 6], &[2, 3]).unwrap();
    let e = ctx.recorder().sort_pairs(&m, &x, &Sort::new()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InputsDiffer {
                op: "sort_pairs",
                ..
            }
        ),
        "{e}"
    );
}

/// Sorts, argsorts and sorts pairs of `T` keys of `shape` along the last axis both ways, and
/// checks each row against a stable sort of it; argsort's indices count from the row's start.
fn rows_case<T: Key>(ctx: &Context, rng: &mut StdRng, shape: &[usize]) {
    let n: usize = shape.iter().product();
    let len = *shape.last().unwrap();
    let keys: Vec<T> = (0..n)
        .map(|_| {
            let pattern = if rng.gen_bool(0.5) {
                Pattern::Few
            } else {
                Pattern::Random
            };
            T::draw(rng, pattern)
        })
        .collect();
    let values: Vec<i32> = (0..n).map(|_| rng.gen()).collect();
    let x = ctx.upload_shaped(&keys, shape).unwrap();
    let v = ctx.upload_shaped(&values, shape).unwrap();
    for descending in [false, true] {
        let sort = Sort::new().descending(descending);
        let (sorted, order, (pk, pv)) = all_three(ctx, &x, &v, &sort);
        let bits = |k: &[T]| k.iter().map(|&k| k.bits()).collect::<Vec<u32>>();
        for (r, row) in keys.chunks(len).enumerate() {
            let want = reference(row, descending);
            let what = format!("{} {shape:?} row {r} descending={descending}", T::DTYPE);
            let at = r * len..(r + 1) * len;
            assert_eq!(&order[at.clone()], &want[..], "{what}: argsort");
            let want_keys: Vec<u32> = want.iter().map(|&i| row[i as usize].bits()).collect();
            assert_eq!(bits(&sorted[at.clone()]), want_keys, "{what}: sorted");
            assert_eq!(
                bits(&pk[at.clone()]),
                want_keys,
                "{what}: keys of the pairs"
            );
            let want_values: Vec<i32> =
                want.iter().map(|&i| values[r * len + i as usize]).collect();
            assert_eq!(&pv[at], &want_values[..], "{what}: values of the pairs");
        }
    }
}

/// Sorts along the last axis: each row on its own (rows of one key, short rows sorted a
/// workgroup each, up to 3,000 of them, 128 and more rows longer than 1,024 keys sorted a
/// workgroup each by the digit, a few long rows through the radix passes over the whole array,
/// and 3-D arrays; f16 and u32 rows too).
#[test]
fn sort_along_rows() {
    let ctx = common::poisoned_context();
    let mut rng = rng("sort rows");
    let shapes: [&[usize]; 12] = [
        &[1, 1],
        &[3, 1],
        &[1000, 1],
        &[7, 1000],
        &[300, 257],
        &[2, 70_000],
        &[512, 16],
        &[3000, 3],
        &[2, 3, 50],
        &[128, 1025],
        &[130, 4097],
        &[2, 64, 3000],
    ];
    let mut checked = 0;
    for shape in shapes {
        rows_case::<f32>(&ctx, &mut rng, shape);
        checked += 1;
    }
    for shape in [&[7usize, 1000][..], &[300, 257], &[3000, 3], &[128, 2049]] {
        rows_case::<f16>(&ctx, &mut rng, shape);
        rows_case::<u32>(&ctx, &mut rng, shape);
        checked += 2;
    }
    assert_eq!(checked, shapes.len() + 8);
}

/// Arrays beyond one storage binding are sorted in pieces (here the binding limit is lowered
/// to 16 KiB: pieces of 2,048 keys): keys, pairs and argsort of whole arrays, 16-bit keys
/// (widened to twice their bytes), argsort and sort of rows, both directions, against the stable
/// CPU order. What cannot be cut is a typed error: digit counts beyond one binding (more than
/// 16 tiles of 2,048 keys here), and key-value pairs along rows.
#[test]
fn sorts_beyond_one_binding_go_in_pieces() {
    let ctx = Context::with_options(wgpu_reduce::ContextOptions::default().with_testing(
        wgpu_reduce::Testing {
            max_storage_binding_bytes: Some(16 << 10),
            ..wgpu_reduce::Testing::poisoned()
        },
    ))
    .unwrap();
    let mut rng = rng("sort pieces");
    let mut checked = 0;
    for n in [5_000, 12_001, 16_384] {
        let u: Vec<u32> = keys_of(&mut rng, n, Pattern::Random, 0);
        let f: Vec<f32> = keys_of(&mut rng, n, Pattern::Few, 0);
        let h: Vec<f16> = keys_of(&mut rng, n, Pattern::Random, 0);
        let values: Vec<u32> = (0..n).map(|_| rng.gen()).collect();
        check(&ctx, &u, &values, &format!("pieces u32 n={n}"));
        check(&ctx, &f, &values, &format!("pieces f32 n={n}"));
        check(&ctx, &h, &values, &format!("pieces f16 n={n}"));
        checked += 3;
    }
    let shape = [30, 400];
    let keys: Vec<f32> = keys_of(&mut rng, 12_000, Pattern::Few, 0);
    let x = ctx.upload_shaped(&keys, &shape).unwrap();
    for descending in [false, true] {
        let sort = Sort::new().descending(descending);
        let (sorted, order) = ctx
            .run(|rec| Ok((rec.sort(&x, &sort)?, rec.argsort(&x, &sort)?)))
            .unwrap();
        for (r, row) in keys.chunks(400).enumerate() {
            let want = reference(row, descending);
            let at = r * 400..(r + 1) * 400;
            assert_eq!(&order[at.clone()], &want[..], "pieces rows {r}: argsort");
            let bits: Vec<u32> = want.iter().map(|&i| row[i as usize].to_bits()).collect();
            let got: Vec<u32> = sorted[at].iter().map(|k| k.to_bits()).collect();
            assert_eq!(got, bits, "pieces rows {r}: sorted");
        }
        checked += 1;
    }
    assert_eq!(checked, 11);
    let too_large = |e: Error, what: &str| {
        assert!(
            matches!(
                e,
                Error::TooLarge {
                    limit_name: "max_storage_buffer_binding_size",
                    ..
                }
            ) && e.to_string().contains(what),
            "{e}"
        );
    };
    let v = ctx.upload_shaped(&vec![1u32; 12_000], &shape).unwrap();
    too_large(
        ctx.recorder().sort_pairs(&x, &v, &Sort::new()).unwrap_err(),
        "key-value pairs along rows",
    );
    let big = ctx.upload(&vec![1u32; 32_769]).unwrap();
    too_large(
        ctx.recorder().sort(&big, &Sort::new()).unwrap_err(),
        "its digit counts",
    );
}
