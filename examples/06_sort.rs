//! Sorting on the GPU: keys, key-value pairs and argsort, ascending and descending, stable
//! (equal keys keep their order), with NaN after +inf as NumPy and PyTorch order them; and
//! top-k and kthvalue, which select without sorting everything.
//!
//!     cargo run --example 06_sort

use wgpu_reduce::{Context, Sort, TopK};

fn main() -> wgpu_reduce::Result<()> {
    let ctx = Context::new()?;

    // Scores and the ids of their players: the top scores first, ties in id order.
    let scores = ctx.upload(&[72.5f32, 91.0, 85.5, 91.0, f32::NAN, 60.0])?;
    let ids = ctx.upload(&[101u32, 102, 103, 104, 105, 106])?;
    let (best, who) =
        ctx.run(|rec| rec.sort_pairs(&scores, &ids, &Sort::new().descending(true)))?;
    println!("scores, best first: {best:?}"); // [NaN, 91.0, 91.0, 85.5, 72.5, 60.0]
    println!("their ids:          {who:?}"); // [105, 102, 104, 103, 101, 106]

    // The order that sorts an array, and the sorted array, in one submission.
    let x = ctx.upload(&[3i32, -7, 0, 3, 12, -7])?;
    let (sorted, order) =
        ctx.run(|rec| Ok((rec.sort(&x, &Sort::new())?, rec.argsort(&x, &Sort::new())?)))?;
    println!("sorted: {sorted:?}"); // [-7, -7, 0, 3, 3, 12]
    println!("argsort: {order:?}"); // [1, 5, 2, 0, 3, 4]: equal keys in input order

    // The three best scores of each of two rounds (rows), and each round's median (the lower
    // one: the 3rd smallest of 6).
    let rounds = ctx.upload_shaped(
        &[
            7.0f32, 3.5, 9.0, 1.0, 9.0, 4.0, 2.0, 8.0, 6.5, 8.0, 0.5, 5.0,
        ],
        &[2, 6],
    )?;
    let ((top, at), (median, _)) = ctx.run(|rec| {
        Ok((
            rec.topk(&rounds, 3, &TopK::new())?,
            rec.kthvalue(&rounds, 3, false)?,
        ))
    })?;
    println!("top 3 of each round: {top:?} at {at:?}"); // [9, 9, 7, 8, 8, 6.5] at [2, 4, 0, 1, 3, 2]
    println!("lower medians: {median:?}"); // [4.0, 5.0]
    assert_eq!(at, vec![2, 4, 0, 1, 3, 2]);
    assert_eq!(median, vec![4.0, 5.0]);

    // A million random keys: sorted on the GPU, checked on the CPU.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let keys: Vec<u32> = (0..1 << 20)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u32
        })
        .collect();
    let gpu = ctx.upload(&keys)?;
    let got = ctx.run(|rec| rec.sort(&gpu, &Sort::new()))?;
    let mut want = keys.clone();
    want.sort();
    println!(
        "2^20 u32 keys sorted: {}",
        if got == want { "yes" } else { "NO" }
    );
    assert_eq!(got, want);
    Ok(())
}
