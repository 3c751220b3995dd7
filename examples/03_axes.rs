//! Reductions along axes: several axes, negative axes, keepdim, argmax along an axis, var with a
//! correction, and a result type chosen by the caller.
//!
//!     cargo run --example 03_axes

use wgpu_reduce::half::f16;
use wgpu_reduce::{ReduceOp, Reduction};

fn main() -> wgpu_reduce::Result<()> {
    let ctx = wgpu_reduce::Context::new()?;
    // A 2 x 3 x 4 array: 0, 1, ..., 23.
    let data: Vec<f32> = (0..24).map(|i| i as f32).collect();
    let x = ctx.upload_shaped(&data, &[2, 3, 4])?;

    println!(
        "sum over axis 0:     {:?}",
        ctx.run(|rec| rec.sum(&x, 0, false))?
    ); // 12 values
    println!(
        "sum over axes 0, 2:  {:?}",
        ctx.run(|rec| rec.sum(&x, [0, 2], false))?
    ); // 3 values
    println!(
        "max over the last:   {:?}",
        ctx.run(|rec| rec.max(&x, -1, false))?
    ); // 6 values
    println!(
        "argmax along axis 1: {:?}",
        ctx.run(|rec| rec.argmax(&x, 1, false))?
    ); // u32 indices
    println!(
        "var (ddof 0), all:   {:?}",
        ctx.run(|rec| rec.var(&x, 0, .., false))?
    );
    let kept = ctx.run(|rec| rec.sum(&x, 1, true))?; // shape [2, 1, 4]: 8 values
    println!("sum over 1, keepdim: {kept:?}");

    // A result type other than the default goes through a Reduction: f16 input, f32 output.
    let h = ctx.upload_shaped(
        &data.iter().map(|&v| f16::from_f32(v)).collect::<Vec<_>>(),
        &[2, 3, 4],
    )?;
    let red = Reduction::new(ReduceOp::Mean).axes(-1).keepdim(true);
    println!("output shape {:?}", red.output_shape(h.shape())?); // [2, 3, 1]
    let m = ctx.run(|rec| rec.reduce::<f16, f32>(&h, &red))?;
    println!("mean over the last axis (f32): {m:?}");

    // Wrong axes are typed errors that say what is allowed.
    if let Err(e) = ctx.run(|rec| rec.sum(&x, 3, false)) {
        println!("axis 3 of a 3-d array: {e}");
    }
    Ok(())
}
