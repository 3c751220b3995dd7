//! One Context shared by many threads: every result correct, no deadlock, no lost map callback
//! (when several threads poll one device, a thread's map callback may be delivered by another
//! thread's poll; an early version returned before it arrived).

mod common;

use common::{random_i32, rng};
use rand::Rng;
use std::sync::Arc;

#[test]
fn threads_share_one_context() {
    let ctx = Arc::new(common::ctx().clone());
    let mut seed_rng = rng("threads");
    let seeds: Vec<u64> = (0..8).map(|_| seed_rng.gen()).collect();
    let handles: Vec<_> = seeds
        .into_iter()
        .map(|seed| {
            let ctx = Arc::clone(&ctx);
            std::thread::spawn(move || {
                use rand::SeedableRng;
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
                for i in 0..60 {
                    let n = rng.gen_range(1..20_000);
                    let data = random_i32(&mut rng, n);
                    let x = ctx.upload(&data).unwrap();
                    match i % 3 {
                        0 => assert_eq!(
                            ctx.sum(&x).unwrap(),
                            data.iter().fold(0i32, |a, &b| a.wrapping_add(b))
                        ),
                        1 => assert_eq!(ctx.min(&x).unwrap(), *data.iter().min().unwrap()),
                        _ => assert_eq!(ctx.read(&x).unwrap(), data),
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a worker thread panicked");
    }
}

#[test]
fn context_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<wgpu_reduce::Context>();
    assert_send_sync::<wgpu_reduce::GpuArray<f32>>();
    assert_send_sync::<wgpu_reduce::Recorder>();
}
