//! Top-k and kthvalue (the radix select) against a stable CPU sort of each row: the k largest
//! or smallest keys of u32, i32, f32, f16 and bf16 rows drawn fresh (seeded and printed) with
//! adversarial patterns (NaN of both signs, ±inf, ±0, subnormals, many equal keys, every key
//! equal), sorted and in index order, k from 0 to the row's length, rows of one key to 100,003
//! and up to 5,000 rows. Keys are compared bit for bit and indices exactly (ties go to the
//! lower index), and every result comes from a context whose temporaries and results are
//! poisoned, so a key not written is caught.

mod common;

use common::keys::{reference, Key, Pattern};
use common::rng;
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::half::{bf16, f16};
use wgpu_reduce::{Context, Error, TopK};

/// Keys of `n`, each drawn from `pattern` (`None`: half random, half of eight values).
fn draw<T: Key>(rng: &mut StdRng, n: usize, pattern: Option<Pattern>) -> Vec<T> {
    (0..n)
        .map(|_| {
            let p = pattern.unwrap_or(if rng.gen_bool(0.5) {
                Pattern::Few
            } else {
                Pattern::Random
            });
            T::draw(rng, p)
        })
        .collect()
}

/// Top-k both ways, sorted and unsorted, and kthvalue, of the rows of `keys` (shape `shape`),
/// recorded together and checked against the stable order of each row.
fn check<T: Key>(ctx: &Context, keys: &[T], shape: &[usize], k: usize) -> usize {
    let len = shape.last().copied().unwrap_or(1);
    let x = ctx.upload_shaped(keys, shape).unwrap();
    let what = format!("{} {shape:?} k={k}", T::DTYPE);
    let kth = k.max(1).min(len);
    let (top, small, unsorted, (kv, ki)) = ctx
        .run(|rec| {
            Ok((
                rec.topk(&x, k, &TopK::new())?,
                rec.topk(&x, k, &TopK::new().largest(false))?,
                rec.topk(&x, k, &TopK::new().sorted(false))?,
                rec.kthvalue(&x, kth, false)?,
            ))
        })
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let bits = |k: &[T]| k.iter().map(|&k| k.bits()).collect::<Vec<u32>>();
    for (r, row) in keys.chunks(len.max(1)).enumerate() {
        let at = r * k..(r + 1) * k;
        for (largest, (values, indices)) in [(true, &top), (false, &small)] {
            let want: Vec<u32> = reference(row, largest)[..k].to_vec();
            let want_keys: Vec<u32> = want.iter().map(|&i| row[i as usize].bits()).collect();
            let what = format!("{what} row {r} largest={largest}");
            assert_eq!(&indices[at.clone()], &want[..], "{what}: indices");
            assert_eq!(bits(&values[at.clone()]), want_keys, "{what}: keys");
        }
        let mut want: Vec<u32> = reference(row, true)[..k].to_vec();
        want.sort_unstable();
        let want_keys: Vec<u32> = want.iter().map(|&i| row[i as usize].bits()).collect();
        assert_eq!(
            &unsorted.1[at.clone()],
            &want[..],
            "{what} row {r}: unsorted indices"
        );
        assert_eq!(
            bits(&unsorted.0[at]),
            want_keys,
            "{what} row {r}: unsorted keys"
        );
        let i = reference(row, false)[kth - 1];
        assert_eq!(ki[r], i, "{what} row {r}: kthvalue({kth}) index");
        assert_eq!(
            kv[r].bits(),
            row[i as usize].bits(),
            "{what} row {r}: kthvalue"
        );
    }
    1
}

/// Every k of short rows, and a spread of k of long ones, for one key type.
fn sweep<T: Key>(name: &'static str) {
    let ctx = common::poisoned_context();
    let mut rng = rng(name);
    let mut checked = 0;
    for n in [1usize, 2, 3, 17, 256, 1025] {
        for pattern in [Pattern::Random, Pattern::Few, Pattern::Two, Pattern::Equal] {
            let keys: Vec<T> = draw(&mut rng, n, Some(pattern));
            let mut ks = vec![0, 1, 2, n / 2, n - 1, n];
            ks.retain(|&k| k <= n);
            ks.sort_unstable();
            ks.dedup();
            for k in ks {
                checked += check(&ctx, &keys, &[n], k);
            }
        }
    }
    for (n, k) in [
        (4097, 4097),
        (100_003, 100),
        (100_003, 1000),
        (100_003, 50_001),
    ] {
        let keys: Vec<T> = draw(&mut rng, n, None);
        checked += check(&ctx, &keys, &[n], k);
    }
    assert_eq!(
        checked,
        (2 + 3 + 4 + 6 + 6 + 6) * 4 + 4,
        "{name}: cases checked"
    );
}

#[test]
fn topk_u32() {
    sweep::<u32>("topk u32");
}

#[test]
fn topk_i32() {
    sweep::<i32>("topk i32");
}

#[test]
fn topk_f32() {
    sweep::<f32>("topk f32");
}

#[test]
fn topk_f16() {
    sweep::<f16>("topk f16");
}

#[test]
fn topk_bf16() {
    sweep::<bf16>("topk bf16");
}

/// Rows: many short ones, a few long ones, more rows than a tile's worth, a 3-D array.
#[test]
fn topk_along_rows() {
    let ctx = common::poisoned_context();
    let mut rng = rng("topk rows");
    let cases: [(&[usize], usize); 8] = [
        (&[3, 1], 1),
        (&[300, 257], 10),
        (&[7, 5000], 4999),
        (&[4096, 16], 5),
        (&[5000, 3], 2),
        (&[2, 70_000], 700),
        (&[2, 3, 50], 50),
        (&[], 1),
    ];
    let mut checked = 0;
    for (shape, k) in cases {
        let n = shape.iter().product();
        checked += check::<f32>(&ctx, &draw(&mut rng, n, None), shape, k);
    }
    for (shape, k) in [(&[300usize, 257][..], 33), (&[3000, 3], 3)] {
        let n = shape.iter().product();
        checked += check::<f16>(&ctx, &draw(&mut rng, n, None), shape, k);
        checked += check::<i32>(&ctx, &draw(&mut rng, n, None), shape, k);
    }
    assert_eq!(checked, cases.len() + 4);
}

/// Shapes of the results, keepdim, empty selections, and the typed errors for k out of range.
#[test]
fn topk_shapes_and_errors() {
    let ctx = common::poisoned_context();
    let x = ctx.upload_shaped(&[5i32, 1, 9, 3, 3, 0], &[2, 3]).unwrap();
    let ((v, i), (kv, ki), (ev, ei)) = ctx
        .run(|rec| {
            let top = rec.topk(&x, 2, &TopK::new())?;
            let kth = rec.kthvalue(&x, 3, true)?;
            let none = rec.topk(&x, 0, &TopK::new())?;
            assert_eq!((top.0.shape(), top.1.shape()), (&[2, 2][..], &[2, 2][..]));
            assert_eq!(kth.0.shape(), &[2, 1]);
            assert_eq!(none.0.shape(), &[2, 0]);
            Ok((top, kth, none))
        })
        .unwrap();
    assert_eq!((v, i), (vec![9, 5, 3, 3], vec![2, 0, 0, 1]));
    assert_eq!((kv, ki), (vec![9, 3], vec![2, 1]));
    assert!(ev.is_empty() && ei.is_empty());
    let mut rec = ctx.recorder();
    assert_eq!(rec.kthvalue(&x, 2, false).unwrap().0.shape(), &[2]);
    for e in [
        rec.topk(&x, 4, &TopK::new()).unwrap_err(),
        rec.kthvalue(&x, 0, false).unwrap_err(),
        rec.kthvalue(&x, 4, false).unwrap_err(),
    ] {
        assert!(
            matches!(e, Error::InvalidParameter { name: "k", .. })
                && e.to_string().contains("the length of the last axis"),
            "{e}"
        );
    }
    let empty = ctx.upload_shaped::<f32>(&[], &[4, 0]).unwrap();
    let e = rec.kthvalue(&empty, 1, false).unwrap_err();
    assert!(
        matches!(e, Error::InvalidParameter { name: "k", .. }),
        "{e}"
    );
    let (v, i) = ctx.run(|rec| rec.topk(&empty, 0, &TopK::new())).unwrap();
    assert!(v.is_empty() && i.is_empty());
}
