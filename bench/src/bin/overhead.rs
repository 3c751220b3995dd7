//! Diagnostic: what each wgpu step of a small call costs on this machine, host to host, next to
//! the library's one-liner. Finds where the latency of a small reduction goes.
//!
//!     cargo run --release -p wgpu-reduce-bench --bin overhead -- [--repeat 300]
//!
//! Options:
//!   --repeat R   runs per figure (default 300)
//!
//! Every figure is the median of `repeat` runs after a warm-up, in microseconds. The kernel is
//! a one-invocation WGSL function (GPU work is negligible), so what is left is the cost of the
//! steps: encoding, bind groups, parameter uploads, error scopes, submission, and the wait and
//! buffer map of a readback.

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;

use std::process::ExitCode;
use std::time::{Duration, Instant};

const SHADER: &str = "
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: vec4<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    if g.x == 0u { dst[0] = src[p.x].x + 1.0; }
}";

fn time(repeat: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..repeat.min(50) {
        f();
    }
    let mut v: Vec<Duration> = (0..repeat)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    support::median(&mut v).as_secs_f64() * 1e6
}

const USAGE: &str = "usage: overhead [--repeat R]";

fn parse_args() -> Result<usize, String> {
    let mut repeat = 300;
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("repeat") => repeat = count(&mut p, &flag)?,
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("overhead.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(repeat)
}

fn main() -> ExitCode {
    let Some(repeat) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let Some(ctx) = support::open_context(Default::default()) else {
        return ExitCode::from(2);
    };
    let (device, queue) = (ctx.device(), ctx.queue());
    let pipeline = wgpu_reduce_bench::wgsl_pipeline(device, "overhead", SHADER);
    let buf = |size: u64, usage: wgpu::BufferUsages| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage,
            mapped_at_creation: false,
        })
    };
    use wgpu::BufferUsages as U;
    let src = buf(1 << 22, U::STORAGE | U::COPY_DST);
    let dst = buf(256, U::STORAGE | U::COPY_SRC);
    let params = buf(256, U::UNIFORM | U::COPY_DST);
    let staging = buf(256, U::MAP_READ | U::COPY_DST);
    let layout = pipeline.get_bind_group_layout(0);
    let make_bind_group = || {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: src.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: dst.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: params.as_entire_binding(),
                },
            ],
        })
    };
    let bind_group = make_bind_group();
    let wait = || {
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    };
    let encode = |bg: &wgpu::BindGroup, readback: bool| {
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, bg, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        if readback {
            enc.copy_buffer_to_buffer(&dst, 0, &staging, 0, 4);
        }
        enc.finish()
    };
    let map_read = || {
        let slice = staging.slice(0..4);
        slice.map_async(wgpu::MapMode::Read, |r| r.expect("map"));
        wait();
        let v = f32::from_le_bytes(
            slice.get_mapped_range().expect("mapped")[..4]
                .try_into()
                .unwrap(),
        );
        std::hint::black_box(v);
        staging.unmap();
    };
    let x = ctx
        .upload(&(0..1 << 20).map(|i| (i % 7) as f32).collect::<Vec<f32>>())
        .expect("upload");
    let rows: Vec<(&str, f64)> = vec![
        (
            "empty submit + blocking poll",
            time(repeat, || {
                queue.submit([device.create_command_encoder(&Default::default()).finish()]);
                wait();
            }),
        ),
        (
            "one dispatch (bind group made once) + poll",
            time(repeat, || {
                queue.submit([encode(&bind_group, false)]);
                wait();
            }),
        ),
        (
            "... + copy to a mapped buffer, map, read",
            time(repeat, || {
                queue.submit([encode(&bind_group, true)]);
                map_read();
            }),
        ),
        (
            "... with a new bind group each call",
            time(repeat, || {
                let bg = make_bind_group();
                queue.submit([encode(&bg, true)]);
                map_read();
            }),
        ),
        (
            "... and a 64-byte write_buffer of parameters",
            time(repeat, || {
                queue.write_buffer(&params, 0, &[0u8; 64]);
                let bg = make_bind_group();
                queue.submit([encode(&bg, true)]);
                map_read();
            }),
        ),
        (
            "... and an error scope around it",
            time(repeat, || {
                let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
                queue.write_buffer(&params, 0, &[0u8; 64]);
                let bg = make_bind_group();
                queue.submit([encode(&bg, true)]);
                assert!(pollster::block_on(scope.pop()).is_none());
                map_read();
            }),
        ),
        (
            "create_bind_group alone",
            time(repeat, || drop(make_bind_group())),
        ),
        (
            "write_buffer(64 bytes) alone",
            time(repeat, || queue.write_buffer(&params, 0, &[0u8; 64])),
        ),
        (
            "push + pop error scope alone",
            time(repeat, || {
                let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
                assert!(pollster::block_on(scope.pop()).is_none());
            }),
        ),
        (
            "encode one dispatch (no submit)",
            time(repeat, || drop(encode(&bind_group, true))),
        ),
        (
            "library: ctx.sum(&x), 2^20 f32",
            time(repeat, || {
                std::hint::black_box(ctx.sum(&x).expect("sum"));
            }),
        ),
    ];
    println!("medians of {repeat} runs, microseconds:");
    for (label, us) in rows {
        println!("  {label:<48} {us:>8.1}");
    }
    ExitCode::SUCCESS
}
