//! Prefix scans along the last axis: cumsum, an exclusive scan, a running maximum, and a scan
//! feeding a reduction in the same submission.
//!
//!     cargo run --example 04_scan

use wgpu_reduce::{Scan, ScanOp};

fn main() -> wgpu_reduce::Result<()> {
    let ctx = wgpu_reduce::Context::new()?;
    let x = ctx.upload_shaped(&[3i32, 1, 4, 1, 5, 9, 2, 6], &[2, 4])?; // two rows

    let mut rec = ctx.recorder();
    let inclusive = rec.cumsum(&x)?; // [[3, 4, 8, 9], [5, 14, 16, 22]]
    let exclusive = rec.scan::<i32, i32>(&x, &Scan::new(ScanOp::Add).exclusive(true))?;
    let running_max = rec.cummax(&x)?;
    let top = rec.max(&inclusive, .., false)?; // reductions can consume scan results
    let t = [
        rec.read(&inclusive)?,
        rec.read(&exclusive)?,
        rec.read(&running_max)?,
    ];
    let t_top = rec.read(&top)?;
    let res = rec.submit()?.wait()?;
    println!("cumsum        {:?}", res.get(&t[0])?);
    println!("exclusive     {:?}", res.get(&t[1])?);
    println!("running max   {:?}", res.get(&t[2])?);
    println!("largest total {}", res.scalar(&t_top)?);

    // f32 of a million elements: one pass per tile, or a single pass with decoupled look-back.
    let big: Vec<f32> = (0..1 << 20).map(|i| (i % 3) as f32).collect();
    let y = ctx.upload(&big)?;
    let last = *ctx.run(|rec| rec.cumsum(&y))?.last().unwrap_or(&0.0);
    println!(
        "sum of the last prefix: {last} (algorithm {:?})",
        ctx.scan_algorithm(1, big.len())
    );
    Ok(())
}
