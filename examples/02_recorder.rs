//! Many reductions, one submission, one host round trip: the recorder.
//!
//!     cargo run --example 02_recorder

fn main() -> wgpu_reduce::Result<()> {
    let ctx = wgpu_reduce::Context::new()?;
    let data: Vec<f32> = (0u64..1 << 20)
        .map(|i| ((i * 7919) % 1000) as f32 / 1000.0)
        .collect();
    let x = ctx.upload(&data)?;

    // Record: nothing runs yet. Results are 0-d arrays that stay on the GPU.
    let mut rec = ctx.recorder();
    let (s, lo, hi) = (
        rec.sum(&x, .., false)?,
        rec.min(&x, .., false)?,
        rec.max(&x, .., false)?,
    );
    let sd = rec.std(&x, 1, .., false)?;
    // A result can feed a later operation in the same recording.
    let twice = rec.sum(&s, .., false)?;
    // Ask for the values to read back: one staging buffer for all of them.
    let tokens = [
        rec.read(&s)?,
        rec.read(&lo)?,
        rec.read(&hi)?,
        rec.read(&twice)?,
    ];
    let t_sd = rec.read(&sd)?;
    println!("{} dispatches recorded", rec.dispatch_count());

    // One submission, one wait.
    let results = rec.submit()?.wait()?;
    let [s, lo, hi, twice] = tokens.map(|t| results.scalar(&t));
    println!(
        "sum {} min {} max {} sum of the sum {}",
        s?, lo?, hi?, twice?
    );
    println!("std {}", results.scalar(&t_sd)?);
    println!("{:?}", ctx.stats()); // one submission, one readback
    Ok(())
}
