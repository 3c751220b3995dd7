//! Hello, GPU reductions: a context, an upload, and one-step calls (`Context::run` records
//! with a recorder, submits, waits and reads back).
//!
//!     cargo run --example 01_hello

fn main() -> wgpu_reduce::Result<()> {
    // The best adapter on this machine (WGPU_BACKEND, WGPU_ADAPTER_NAME are honoured).
    let ctx = wgpu_reduce::Context::new()?;
    println!("adapter: {}", ctx.capabilities().adapter.name);

    // A 2 x 3 array on the GPU.
    let x = ctx.upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;

    // Every reduction takes the axes (`..` for all) and keepdim; each call below is one
    // submission and one read, and returns the result's values row-major.
    println!("sum         = {:?}", ctx.run(|rec| rec.sum(&x, .., false))?); // [21]
    println!(
        "mean        = {:?}",
        ctx.run(|rec| rec.mean(&x, .., false))?
    ); // [3.5]
    println!("column sums = {:?}", ctx.run(|rec| rec.sum(&x, 0, false))?); // [5, 7, 9]
    println!("row maxima  = {:?}", ctx.run(|rec| rec.max(&x, -1, false))?); // [3, 6]
    println!(
        "argmax      = {:?}",
        ctx.run(|rec| rec.argmax(&x, .., false))?
    ); // [5], a flat index
    println!("cumsum      = {:?}", ctx.run(|rec| rec.cumsum(&x))?); // [1, 3, 6, 4, 9, 15]
    Ok(())
}
