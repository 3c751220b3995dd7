//! Argmin/argmax over whole f32 arrays long enough for the flat first pass (at least
//! 2 · workgroup size · 16 elements; shaders/reduce_flat.wgsl): its integer keys must keep every
//! rule of the general kernel. Random data against a CPU reference, then planted ties (lowest
//! index), NaNs of either sign and any payload (the first NaN), -0.0 against +0.0 (equal: lowest
//! index), ±inf, subnormals that differ in the last bit, and arrays cut into pieces that each
//! take the flat pass (indices of the whole array). Lengths around the threshold and the vec4
//! tail; both workgroup strategies.

mod common;

use common::{contexts, rng};
use rand::rngs::StdRng;
use rand::Rng;
use wgpu_reduce::{Context, ContextOptions, ReduceOp, Reduction};

/// PyTorch's rule: the first NaN; else the first of the largest (smallest) values, with -0.0
/// equal to +0.0.
fn reference(data: &[f32], op: ReduceOp) -> u32 {
    if let Some(p) = data.iter().position(|v| v.is_nan()) {
        return p as u32;
    }
    let mut best = 0;
    for (i, &v) in data.iter().enumerate() {
        let better = match op {
            ReduceOp::Argmax => v > data[best],
            _ => v < data[best],
        };
        if better {
            best = i;
        }
    }
    best as u32
}

fn check(ctx: &Context, data: &[f32], label: &str) {
    let x = ctx.upload(data).unwrap();
    for op in [ReduceOp::Argmin, ReduceOp::Argmax] {
        let y = ctx.reduce::<f32, u32>(&x, &Reduction::new(op)).unwrap();
        let got = ctx.read(&y).unwrap();
        let want = reference(data, op);
        assert_eq!(
            got,
            vec![want],
            "{label}, n={}, {op:?}: got index {:?} (value {:?}), want {want} (value {})",
            data.len(),
            got,
            got.first().and_then(|&g| data.get(g as usize)),
            data[want as usize]
        );
    }
}

/// Lengths around the flat pass's threshold for `ctx`'s workgroup size, and larger ones.
fn lengths(ctx: &Context) -> Vec<usize> {
    let t = 2 * ctx.tuning().workgroup_size as usize * 16;
    vec![t - 1, t, t + 1, t + 3, 3 * t + 2, 65536 + 5, (1 << 20) + 3]
}

/// `k` distinct positions in `0..n`, ascending.
fn positions(rng: &mut StdRng, n: usize, k: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..k).map(|_| rng.gen_range(0..n)).collect();
    p.sort_unstable();
    p.dedup();
    p
}

#[test]
fn random_data_and_planted_ties() {
    let mut rng = rng("flat random and ties");
    for ctx in contexts() {
        for n in lengths(ctx) {
            let mut data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
            check(ctx, &data, "random");
            // A unique extreme in the last elements (after the last whole vec4 word when n is
            // not a multiple of 4).
            let last = data[n - 1];
            data[n - 1] = 3.0;
            data[n - 2] = -3.0;
            check(ctx, &data, "extremes at the end");
            data[n - 1] = last;
            // The extreme value at several places, the last vec4 tail included.
            let mut at = positions(&mut rng, n, 4);
            at.push(n - 1);
            for &p in &at {
                data[p] = 2.0;
            }
            for &p in at.iter().rev().take(2) {
                data[p - p % 2] = -2.0;
            }
            check(ctx, &data, "ties");
            // Every element equal: index 0.
            check(ctx, &vec![0.25f32; n], "all equal");
        }
    }
}

#[test]
fn nans_of_any_sign_and_payload_the_first_wins() {
    let mut rng = rng("flat NaN");
    let nans = [
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xffff_ffff),
    ];
    for ctx in contexts() {
        for n in lengths(ctx) {
            for (k, &first) in nans.iter().enumerate() {
                let mut data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
                let at = positions(&mut rng, n, 3);
                // The first NaN of this case is `first`; later ones are other NaNs.
                for (j, &p) in at.iter().enumerate() {
                    data[p] = if j == 0 { first } else { nans[(k + j) % 4] };
                }
                data[rng.gen_range(0..n)] = f32::INFINITY;
                data[rng.gen_range(0..n)] = f32::NEG_INFINITY;
                check(ctx, &data, &format!("NaN {:#x} first", first.to_bits()));
            }
        }
    }
}

#[test]
fn signed_zeros_infinities_and_subnormals() {
    let mut rng = rng("flat special values");
    for ctx in contexts() {
        for n in lengths(ctx) {
            // Zeros are the extremes: -0.0 and +0.0 tie, so the lower index wins.
            let mut data: Vec<f32> = (0..n).map(|_| rng.gen_range(0.5f32..1.0)).collect();
            let at = positions(&mut rng, n, 2);
            if at.len() == 2 {
                data[at[0]] = if rng.gen() { -0.0 } else { 0.0 };
                data[at[1]] = if data[at[0]] == 0.0 && data[at[0]].is_sign_negative() {
                    0.0
                } else {
                    -0.0
                };
            }
            for v in data.iter_mut().filter(|v| **v > 0.0) {
                *v = -*v;
            }
            check(ctx, &data, "signed zeros");
            // Only infinities: the first of each sign.
            let data: Vec<f32> = (0..n)
                .map(|_| {
                    if rng.gen() {
                        f32::INFINITY
                    } else {
                        f32::NEG_INFINITY
                    }
                })
                .collect();
            check(ctx, &data, "infinities");
            check(ctx, &vec![f32::NEG_INFINITY; n], "all -inf");
            // Subnormals one unit apart, of both signs: compared exactly.
            let data: Vec<f32> = (0..n)
                .map(|_| {
                    let v = f32::from_bits(rng.gen_range(1..64));
                    if rng.gen() {
                        v
                    } else {
                        -v
                    }
                })
                .collect();
            check(ctx, &data, "subnormals");
        }
    }
}

#[test]
fn pieces_each_take_the_flat_pass_and_report_whole_array_indices() {
    let mut rng = rng("flat pieces");
    // Bindings of 128 KiB: pieces of about 32 Ki elements, each over the flat threshold.
    let ctx = Context::with_options(ContextOptions {
        max_storage_binding_bytes: Some(128 << 10),
        poison_temporaries: true,
        ..Default::default()
    })
    .unwrap();
    for n in [300_001usize, 1 << 18] {
        let mut data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
        check(&ctx, &data, "pieces, random");
        // Ties in different pieces, then a NaN late in the array.
        for p in positions(&mut rng, n, 3) {
            data[p] = 5.0;
        }
        check(&ctx, &data, "pieces, ties");
        let late = rng.gen_range(n / 2..n);
        data[late] = f32::NAN;
        check(&ctx, &data, "pieces, NaN");
    }
}
