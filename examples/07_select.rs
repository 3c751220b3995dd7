//! Selecting and counting on the GPU: compaction (the elements a mask keeps, in order, with the
//! count kept on the GPU), nonzero, partition, run-length encoding, unique values with counts,
//! histograms and bincount.
//!
//!     cargo run --example 07_select

use wgpu_reduce::Context;

fn main() -> wgpu_reduce::Result<()> {
    let ctx = Context::new()?;

    // Particles: keep the live ones (in order, the same on every run), and sum the energy of
    // those kept in the same submission: the count never goes to the host in between.
    let energy = ctx.upload(&[4.0f32, 0.5, 2.5, 9.0, 1.0, 3.0])?;
    let alive = ctx.upload(&[1u32, 0, 1, 1, 0, 1])?;
    let (kept, total) = ctx.run(|rec| {
        let kept = rec.compact(&energy, &alive)?;
        let padded = rec.fill_rest(&kept, 0.0)?;
        Ok((kept.clone(), rec.sum(&padded, .., false)?))
    })?;
    println!("live energies: {kept:?}, total {total:?}"); // [4.0, 2.5, 9.0, 3.0], total [18.5]
    assert_eq!(total, vec![18.5]);

    // Where a 2x3 array is not zero, as torch.nonzero: one (row, column) pair per element.
    let x = ctx.upload_shaped(&[0i32, 5, 0, -2, 0, 7], &[2, 3])?;
    let at = ctx.run(|rec| rec.nonzero(&x))?;
    println!("nonzero at: {at:?}"); // [0, 1, 1, 0, 1, 2]
    assert_eq!(at, vec![0, 1, 1, 0, 1, 2]);

    // The live particles first and the others after, both in order.
    let (parts, live) = ctx.run(|rec| rec.partition(&energy, &alive))?;
    println!("partitioned: {parts:?}, {live:?} live"); // [4.0, 2.5, 9.0, 3.0, 0.5, 1.0], [4]

    // Run-length encoding, and the distinct values with their counts.
    let s = ctx.upload(&[3u32, 3, 3, 1, 1, 3, 2, 2])?;
    let ((values, lengths), (unique, counts)) =
        ctx.run(|rec| Ok((rec.run_lengths(&s)?, rec.unique_counts(&s)?)))?;
    println!("runs: {values:?} of lengths {lengths:?}"); // [3, 1, 3, 2] of [3, 2, 1, 2]
    println!("unique: {unique:?} with counts {counts:?}"); // [1, 2, 3] with [2, 2, 4]
    assert_eq!((unique, counts), (vec![1, 2, 3], vec![2, 2, 4]));

    // A histogram of a million values in 16 bins over [0, 1], and a bincount of small integers:
    // exact counts, the same on every run.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let samples: Vec<f32> = (0..1 << 20)
        .map(|_| (next() >> 40) as f32 / (1u64 << 24) as f32)
        .collect();
    let dice: Vec<u32> = (0..1 << 20).map(|_| (next() % 6) as u32).collect();
    let (gs, gd) = (ctx.upload(&samples)?, ctx.upload(&dice)?);
    let (hist, faces) =
        ctx.run(|rec| Ok((rec.histogram(&gs, 16, 0.0, 1.0)?, rec.bincount(&gd, 6)?)))?;
    println!("histogram of 2^20 uniform values: {hist:?}");
    println!("2^20 dice: {faces:?}");
    assert_eq!(hist.iter().sum::<u32>(), 1 << 20);
    assert_eq!(faces.iter().sum::<u32>(), 1 << 20);
    Ok(())
}
