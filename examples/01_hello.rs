//! Hello, GPU reductions: a context, an upload, and blocking one-liners.
//!
//!     cargo run --example 01_hello

fn main() -> wgpu_reduce::Result<()> {
    // The best adapter on this machine (WGPU_BACKEND, WGPU_ADAPTER_NAME are honoured).
    let ctx = wgpu_reduce::Context::new()?;
    println!("adapter: {}", ctx.capabilities().adapter.name);

    // A 2 x 3 array on the GPU.
    let x = ctx.upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;

    // Each one-liner records, submits, waits and reads back.
    println!("sum         = {}", ctx.sum(&x)?); // 21
    println!("mean        = {}", ctx.mean(&x)?); // 3.5
    println!("column sums = {:?}", ctx.sum_axes(&x, 0)?); // [5, 7, 9]
    println!("row maxima  = {:?}", ctx.max_axes(&x, -1)?); // [3, 6]
    println!("argmax      = {}", ctx.argmax(&x)?); // 5, a flat index
    let c = ctx.cumsum(&x)?; // along the last axis; stays on the GPU until read
    println!("cumsum      = {:?}", ctx.read(&c)?); // [1, 3, 6, 4, 9, 15]
    Ok(())
}
