//! Argmin/argmax and aminmax over whole f32 arrays long enough for the flat first pass (at least
//! 2 · workgroup size · 16 elements; shaders/reduce_flat.wgsl), and along rows of whole vec4
//! words (at least 64 elements): its integer keys must keep every rule of the general kernel. Random data against a CPU reference, then planted ties (lowest
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

/// aminmax's rule: NaN for both if any element is NaN; else the least and greatest values
/// (-0.0 and +0.0 compare equal here: either is an exact answer).
fn minmax_reference(data: &[f32]) -> (f32, f32) {
    if data.iter().any(|v| v.is_nan()) {
        return (f32::NAN, f32::NAN);
    }
    let lo = data.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = data.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    (lo, hi)
}

/// The same value, or both NaN.
fn same(a: f32, b: f32) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

fn check_minmax(got: &[f32], data: &[f32], what: &str) {
    let (lo, hi) = minmax_reference(data);
    assert!(
        got.len() == 2 && same(got[0], lo) && same(got[1], hi),
        "{what}: aminmax got {got:?}, want [{lo}, {hi}]"
    );
}

fn check(ctx: &Context, data: &[f32], label: &str) {
    let x = ctx.upload(data).unwrap();
    for op in [ReduceOp::Argmin, ReduceOp::Argmax] {
        let y = ctx
            .run(|rec| rec.reduce::<f32, u32>(&x, &Reduction::new(op)))
            .unwrap();
        let got = y;
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
    let y = ctx
        .run(|rec| rec.reduce::<f32, f32>(&x, &Reduction::new(ReduceOp::AMinMax)))
        .unwrap();
    let got = y;
    check_minmax(&got, data, &format!("{label}, n={}", data.len()));
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
            check(ctx, &vec![f32::INFINITY; n], "all +inf");
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
    let ctx = small_bindings(128 << 10);
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

/// A context whose storage bindings hold `bytes` (larger inputs are cut into pieces), with
/// poisoned temporaries.
fn small_bindings(bytes: u64) -> Context {
    Context::with_options(
        ContextOptions::default().with_testing(wgpu_reduce::Testing {
            max_storage_binding_bytes: Some(bytes),
            poison_temporaries: true,
            ..Default::default()
        }),
    )
    .unwrap()
}

/// Argmin/argmax along the rows of an `outer` x `r` matrix, each row against the reference.
fn check_rows(ctx: &Context, data: &[f32], outer: usize, label: &str) -> usize {
    let r = data.len() / outer;
    let x = ctx.upload_shaped(data, &[outer, r]).unwrap();
    let mut checked = 0;
    for op in [ReduceOp::Argmin, ReduceOp::Argmax] {
        let y = ctx
            .run(|rec| rec.reduce::<f32, u32>(&x, &Reduction::new(op).axes(1)))
            .unwrap();
        let got = y;
        assert_eq!(got.len(), outer, "{label}: {outer} x {r}, {op:?}");
        for (i, row) in data.chunks(r).enumerate() {
            let want = reference(row, op);
            assert_eq!(
                got[i],
                want,
                "{label}, {outer} x {r}, {op:?}, row {i}: got index {} (value {:?}), want {want} \
                 (value {})",
                got[i],
                row.get(got[i] as usize),
                row[want as usize]
            );
            checked += 1;
        }
    }
    let y = ctx
        .run(|rec| rec.reduce::<f32, f32>(&x, &Reduction::new(ReduceOp::AMinMax).axes(1)))
        .unwrap();
    let got = y;
    assert_eq!(got.len(), 2 * outer, "{label}: {outer} x {r}, aminmax");
    for (i, row) in data.chunks(r).enumerate() {
        check_minmax(
            &got[2 * i..2 * i + 2],
            row,
            &format!("{label}, {outer} x {r}, row {i}"),
        );
        checked += 1;
    }
    checked
}

/// Shapes (rows, row length) around the flat pass's rows for a workgroup of `t / 16` threads.
fn row_cases(t: usize) -> [(usize, usize); 11] {
    [
        (40, t),
        (3, 8 * t + 4),
        (2, 3 * t + 8),
        (700, t + 4),
        (5, t - 4),
        (6, t + 2),
        (300, 64),
        (1000, 68),
        (50, 60),
        (130, t / 4 + 4),
        (3, 260),
    ]
}

#[test]
fn rows_of_whole_words_take_the_flat_pass_per_row() {
    let mut rng = rng("flat rows");
    let mut checked = 0;
    let mut cases = 0;
    for ctx in contexts() {
        // The flat pass takes rows of whole vec4 words of at least 64 elements: about four
        // words per thread, up to a workgroup (`t` elements) per row, rows cut into chunks
        // where they are too few to fill the GPU; several rows to a workgroup, the last
        // workgroup's partly past the last row. Rows not of whole words, or shorter, take the
        // general layout.
        let t = ctx.tuning().workgroup_size as usize * 16;
        for (outer, r) in row_cases(t) {
            let n = outer * r;
            let mut data: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
            checked += check_rows(ctx, &data, outer, "random");
            // Ties across a row's chunks, the row's last element among them; a NaN in some
            // rows after a tie; -0.0 and +0.0 as a row's extremes.
            for row in 0..outer {
                let base = row * r;
                for p in positions(&mut rng, r, 3).into_iter().chain([r - 1]) {
                    data[base + p] = if row % 2 == 0 { 2.0 } else { -2.0 };
                }
                if row % 3 == 1 {
                    let at = rng.gen_range(0..r);
                    data[base + at] = if rng.gen() { f32::NAN } else { -f32::NAN };
                    data[base + rng.gen_range(at..r)] = f32::NAN;
                }
                // The NaN nearest infinity, alone in its row.
                if row % 3 == 2 {
                    data[base + rng.gen_range(0..r)] = f32::from_bits(0x7f80_0001);
                }
            }
            checked += check_rows(ctx, &data, outer, "ties and NaN");
            let mut zeros: Vec<f32> = (0..n).map(|_| rng.gen_range(0.5f32..1.0)).collect();
            for row in zeros.chunks_mut(r) {
                let [a, b] = [rng.gen_range(0..r / 2), rng.gen_range(r / 2..r)];
                row[a] = if rng.gen() { -0.0 } else { 0.0 };
                row[b] = -row[a];
                for v in row.iter_mut().filter(|v| **v > 0.0) {
                    *v = -*v;
                }
            }
            checked += check_rows(ctx, &zeros, outer, "signed zeros");
            // Rows all +inf but for one -inf or NaN in some.
            let mut inf = vec![f32::INFINITY; n];
            for row in inf.chunks_mut(r).skip(1).step_by(2) {
                row[rng.gen_range(0..r)] = if rng.gen() {
                    f32::NEG_INFINITY
                } else {
                    f32::NAN
                };
            }
            checked += check_rows(ctx, &inf, outer, "infinities");
            cases += 4;
        }
    }
    let rows: usize = row_cases(256).iter().map(|c| c.0).sum::<usize>() * 4 * 3 * contexts().len();
    assert_eq!(checked, rows, "rows checked in {cases} cases");
}

#[test]
fn rows_in_pieces_take_the_flat_pass_with_their_own_row_offsets() {
    let mut rng = rng("flat rows in pieces");
    // Bindings of 16 KiB (4 Ki f32): a matrix of rows of whole words is cut into pieces of
    // whole rows (or rows cut into pieces of their own where one row is over the limit), each
    // piece starting at a row that is not the first.
    let ctx = small_bindings(16 << 10);
    let shapes = [(37, 1000), (50, 64), (9, 4096), (3, 12_000), (129, 256)];
    let mut checked = 0;
    for (outer, r) in shapes {
        let data: Vec<f32> = (0..outer * r)
            .map(|_| rng.gen_range(-1.0f32..1.0))
            .collect();
        checked += check_rows(&ctx, &data, outer, "pieces");
    }
    let rows: usize = shapes.iter().map(|s| s.0).sum();
    assert_eq!(checked, rows * 3);
}

/// nansum, the 1-norm, any, all and count_nonzero over whole f32 arrays long enough for the flat
/// pass (one state per lane of a vec4 word; shaders/axis/flat_lanes.wgsl), whole and cut into pieces
/// under 128 KiB bindings, against the f64 reference of tests/common/reference.rs (its stated
/// tolerances; result buffers poisoned): NaNs at a rate drawn per case (none, a fifth, all),
/// zeros of both signs likewise (none, 3 in 10, all, one in the array), with ±inf and
/// subnormals (non-zero) planted.
#[test]
fn value_operations_take_the_flat_pass_whole_and_in_pieces() {
    use common::run::case_of;
    use wgpu_reduce::DType;
    let mut rng = rng("flat value operations");
    let ops = [
        ReduceOp::NanSum,
        ReduceOp::Norm1,
        ReduceOp::Any,
        ReduceOp::All,
        ReduceOp::CountNonzero,
    ];
    let pieces = small_bindings(128 << 10);
    let mut checked = 0;
    for ctx in [common::ctx(), &pieces] {
        let lens = lengths(ctx);
        for op in ops {
            for &n in &lens {
                let nan_rate = match op {
                    ReduceOp::NanSum => [0.0, 0.2, 1.0][rng.gen_range(0..3)],
                    _ => 0.0,
                };
                let zero_rate = [0.0, 0.3, 1.0, 0.5 / n as f64][rng.gen_range(0..4)];
                let specials = [f64::INFINITY, f64::NEG_INFINITY, 1e-45, -1e-45];
                let data = mixed_data(&mut rng, n, (nan_rate, zero_rate), &specials, 1.0);
                case_of(ctx, &data, DType::F32, &[n], &Reduction::new(op));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * 5 * 7, "cases checked");
}

/// With `Tuning::reduce_last_group_flat`, a whole f32 array that takes the flat first
/// pass is one pass (counted), whose last workgroup combines the others' states: every flat
/// operation against the reference, and bit for bit against the same context whose published
/// states are hidden (the last workgroup computes them all again, in the same order); at most
/// 512 workgroups (more take two passes), and in pieces that each fit a small binding. Random
/// data with NaNs, zeros and infinities, lengths from the flat threshold to 512 workgroups and
/// beyond, off the vec4 tail.
#[test]
fn one_pass_finish_matches_the_reference_and_its_recomputed_states() {
    use common::run::{case_of, run, upload};
    use wgpu_reduce::DType;
    let mut rng = rng("flat one-pass finish");
    let make = |one_pass: bool, hide: bool, max_workgroups: u32| {
        Context::with_options(
            ContextOptions::default()
                .with_tuning({
                    let mut t = wgpu_reduce::Tuning::default();
                    t.workgroup_size = 64;
                    t.max_workgroups = max_workgroups;
                    t.reduce_last_group_flat = one_pass;
                    t
                })
                .with_testing(wgpu_reduce::Testing {
                    hide_partials: hide,
                    poison_temporaries: true,
                    ..Default::default()
                }),
        )
        .unwrap()
    };
    let (two, one, hidden, wide) = (
        make(false, false, 512),
        make(true, false, 512),
        make(true, true, 512),
        make(true, false, 1024),
    );
    let pieces = Context::with_options(
        ContextOptions::default()
            .with_tuning({
                let mut t = wgpu_reduce::Tuning::default();
                t.reduce_last_group_flat = true;
                t
            })
            .with_testing(wgpu_reduce::Testing {
                max_storage_binding_bytes: Some(128 << 10),
                poison_temporaries: true,
                ..Default::default()
            }),
    )
    .unwrap();
    let ops = [
        ReduceOp::Argmin,
        ReduceOp::Argmax,
        ReduceOp::AMinMax,
        ReduceOp::Norm2,
        ReduceOp::NanSum,
        ReduceOp::Norm1,
        ReduceOp::Any,
        ReduceOp::All,
        ReduceOp::CountNonzero,
    ];
    // 1,024 elements per workgroup of 64: 2 workgroups, ..., 512 (the cap), 1,024 (wide only).
    let t = 2 * 64 * 16;
    let lens = [t, t + 3, 65_536 + 5, 512 * 1024 - 1, (1 << 20) + 7];
    let mut checked = 0;
    for op in ops {
        for n in lens {
            let nan_rate = [0.0, 0.0, 0.01][rng.gen_range(0..3)];
            let zero_rate = [0.0, 0.3][rng.gen_range(0..2)];
            let specials = [f64::INFINITY, f64::NEG_INFINITY];
            let data = mixed_data(&mut rng, n, (nan_rate, zero_rate), &specials, 4.0);
            let red = Reduction::new(op);
            let out = op.allowed_outputs(DType::F32)[0];
            // More than 512 workgroups (the wide context's largest input) take two passes.
            let wide_passes = if n / 1024 > 512 { 2 } else { 1 };
            for (ctx, passes) in [(&two, 2), (&one, 1), (&hidden, 1), (&wide, wide_passes)] {
                case_of(ctx, &data, DType::F32, &[n], &red);
                let x = ctx.upload(&vec![1.0f32; n]).unwrap();
                let mut rec = ctx.recorder();
                match out {
                    DType::U32 => drop(rec.reduce::<f32, u32>(&x, &red).unwrap()),
                    _ => drop(rec.reduce::<f32, f32>(&x, &red).unwrap()),
                }
                assert_eq!(rec.dispatch_count(), passes, "{op:?} n={n}: passes");
                checked += 1;
            }
            // Cut into pieces that each take the flat pass and finish in one (into states).
            case_of(&pieces, &data, DType::F32, &[n], &red);
            let bits = |ctx: &Context| {
                let (v, _) = run(ctx, &upload(ctx, DType::F32, &data, &[n]), &red, out).unwrap();
                v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            };
            assert_eq!(bits(&one), bits(&hidden), "{op:?} n={n}: recomputed states");
        }
    }
    assert_eq!(checked, ops.len() * lens.len() * 4);
}

/// `n` f32 values uniform in (-range, range), with NaNs and zeros at the rates given and one in
/// 4,096 of the others one of `specials`.
fn mixed_data(
    rng: &mut StdRng,
    n: usize,
    (nan_rate, zero_rate): (f64, f64),
    specials: &[f64],
    range: f64,
) -> common::reference::Data {
    use common::run::{make_data, nan_or_zero};
    use rand::SeedableRng;
    let mut g = StdRng::from_rng(rng).unwrap();
    let value = || {
        nan_or_zero(&mut g, nan_rate, zero_rate).unwrap_or_else(|| {
            if g.gen_ratio(1, 4096) {
                specials[g.gen_range(0..specials.len())]
            } else {
                g.gen_range(-range..range)
            }
        })
    };
    make_data(wgpu_reduce::DType::F32, n, value, || 0)
}
