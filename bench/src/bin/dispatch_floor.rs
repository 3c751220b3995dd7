//! Diagnostic: the GPU time of a dispatch that does (almost) nothing, K in one submission, the
//! way a batch of small operations runs. This is the floor under any one-pass operation on
//! this device through wgpu, to set beside a peer's floor (`benches/torch_floor.py`: K tiny
//! kernels replayed from a CUDA graph).
//!
//!     cargo run --release -p wgpu-reduce-bench --bin dispatch_floor -- [--k 1,10,100]
//!         [--groups 1,32,256] [--repeat 50]
//!
//! Options:
//!   --k K,...        dispatches in one submission (default 1,10,100)
//!   --groups G,...   workgroups of 64 invocations per dispatch (default 1,32,256)
//!   --repeat R       timed submissions per figure after a warm-up (default 50)
//!
//! Each dispatch adds 1 atomically to a counter from one invocation of each workgroup. Three
//! ways of recording K of them, each timed by timestamps at the start of the first pass and the
//! end of the last (median of `repeat` submissions, divided by K):
//!   dependent     one compute pass, every dispatch on the same buffer (read-write, so wgpu
//!                 orders each after the one before it, as the passes of an operation are)
//!   independent   one compute pass, each dispatch on a buffer of its own
//!   passes        one compute pass per dispatch, all on the same buffer
//! Every counter is read back at the end and checked against the number of dispatches that ran.

use wgpu_reduce_bench::args::*;
use wgpu_reduce_bench::support;

use std::process::ExitCode;

const SHADER: &str = "
@group(0) @binding(0) var<storage, read_write> counter: array<atomic<u32>>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    if lid == 0u { atomicAdd(&counter[wid.x % 64u], 1u); }
}";

const USAGE: &str = "usage: dispatch_floor [--k K,...] [--groups G,...] [--repeat R]";

struct Args {
    k: Vec<usize>,
    groups: Vec<usize>,
    repeat: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        k: vec![1, 10, 100],
        groups: vec![1, 32, 256],
        repeat: 50,
    };
    let mut p = Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = name(&arg);
        match arg {
            Long("k") => a.k = list(&mut p, &flag, "dispatch counts")?,
            Long("groups") => a.groups = list(&mut p, &flag, "workgroup counts")?,
            Long("repeat") => a.repeat = count(&mut p, &flag)?,
            Short('h') | Long("help") => {
                println!("{}", help(include_str!("dispatch_floor.rs"), USAGE));
                std::process::exit(0);
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    if a.k.contains(&0) || a.groups.contains(&0) || a.repeat == 0 {
        return Err(fail(
            "--k, --groups and --repeat take counts of at least 1",
            USAGE,
        ));
    }
    Ok(a)
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Dependent,
    Independent,
    Passes,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Dependent => "dependent",
            Mode::Independent => "independent",
            Mode::Passes => "passes",
        }
    }
}

struct Floor<'a> {
    device: &'a wgpu::Device,
    queue: &'a wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    staging: wgpu::Buffer,
}

const COUNTER_BYTES: u64 = 64 * 4;

fn buffer(device: &wgpu::Device, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage,
        mapped_at_creation: false,
    })
}

impl Floor<'_> {
    fn bind_group(&self, counter: &wgpu::Buffer) -> wgpu::BindGroup {
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: counter.as_entire_binding(),
            }],
        })
    }

    fn wait(&self) {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }

    /// One submission of `k` dispatches of `groups` workgroups; its GPU time in ns.
    fn submit(&self, mode: Mode, bind_groups: &[wgpu::BindGroup], k: usize, groups: u32) -> f64 {
        let mut enc = self.device.create_command_encoder(&Default::default());
        let writes = |first: bool, last: bool| {
            (first || last).then(|| wgpu::ComputePassTimestampWrites {
                query_set: &self.queries,
                beginning_of_pass_write_index: first.then_some(0),
                end_of_pass_write_index: last.then_some(1),
            })
        };
        let bind_group = |i: usize| &bind_groups[if mode == Mode::Independent { i } else { 0 }];
        if mode == Mode::Passes {
            for i in 0..k {
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: None,
                    timestamp_writes: writes(i == 0, i + 1 == k),
                });
                pass.set_pipeline(&self.pipeline);
                pass.set_bind_group(0, bind_group(i), &[]);
                pass.dispatch_workgroups(groups, 1, 1);
            }
        } else {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: writes(true, true),
            });
            pass.set_pipeline(&self.pipeline);
            for i in 0..k {
                pass.set_bind_group(0, bind_group(i), &[]);
                pass.dispatch_workgroups(groups, 1, 1);
            }
        }
        enc.resolve_query_set(&self.queries, 0..2, &self.resolve, 0);
        enc.copy_buffer_to_buffer(&self.resolve, 0, &self.staging, 0, 16);
        self.queue.submit([enc.finish()]);
        let ticks = self.read_u64s(&self.staging, 2);
        let period = f64::from(self.queue.get_timestamp_period());
        ticks[1].saturating_sub(ticks[0]) as f64 * period
    }

    fn read_u64s(&self, staging: &wgpu::Buffer, n: usize) -> Vec<u64> {
        let slice = staging.slice(0..(n * 8) as u64);
        slice.map_async(wgpu::MapMode::Read, |r| r.expect("map"));
        self.wait();
        let v = bytemuck::pod_collect_to_vec(&slice.get_mapped_range().expect("mapped")[..]);
        staging.unmap();
        v
    }

    /// The sum of a counter buffer's 64 words.
    fn counted(&self, counter: &wgpu::Buffer) -> u64 {
        let staging = buffer(
            self.device,
            COUNTER_BYTES,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let mut enc = self.device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(counter, 0, &staging, 0, COUNTER_BYTES);
        self.queue.submit([enc.finish()]);
        let words: Vec<u64> = self.read_u64s(&staging, (COUNTER_BYTES / 8) as usize);
        words.iter().map(|w| (w & 0xFFFF_FFFF) + (w >> 32)).sum()
    }
}

fn main() -> ExitCode {
    let Some(a) = support::parsed(or_usage(parse_args(), USAGE)) else {
        return ExitCode::from(2);
    };
    let Some(ctx) = support::open_context(Default::default()) else {
        return ExitCode::from(2);
    };
    if !ctx.capabilities().timestamps {
        eprintln!("error: this adapter has no timestamp queries; GPU time cannot be measured");
        return ExitCode::from(2);
    }
    let device = ctx.device();
    let pipeline = wgpu_reduce_bench::wgsl_pipeline(device, "dispatch floor", SHADER);
    use wgpu::BufferUsages as U;
    let f = Floor {
        device,
        queue: ctx.queue(),
        pipeline,
        queries: device.create_query_set(&wgpu::QuerySetDescriptor {
            label: None,
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        }),
        resolve: buffer(device, 16, U::QUERY_RESOLVE | U::COPY_SRC),
        staging: buffer(device, 16, U::MAP_READ | U::COPY_DST),
    };
    let k_max = *a.k.iter().max().unwrap_or(&1);
    // Counters start at zero (wgpu zeroes new buffers).
    let counters: Vec<wgpu::Buffer> = (0..k_max)
        .map(|_| buffer(device, COUNTER_BYTES, U::STORAGE | U::COPY_SRC))
        .collect();
    let bind_groups: Vec<wgpu::BindGroup> = counters.iter().map(|c| f.bind_group(c)).collect();
    let mut expected = vec![0u64; k_max];
    println!("mode,groups,k,submission_us,per_dispatch_us");
    for mode in [Mode::Dependent, Mode::Independent, Mode::Passes] {
        for &g in &a.groups {
            for &k in &a.k {
                // Counters written by a submission, and the workgroups each receives.
                let (used, added) = match mode {
                    Mode::Independent => (k, g as u64),
                    Mode::Dependent | Mode::Passes => (1, (g * k) as u64),
                };
                let mut run = || {
                    let t = f.submit(mode, &bind_groups, k, g as u32);
                    expected[..used].iter_mut().for_each(|e| *e += added);
                    t
                };
                support::warm_up(|| {
                    run();
                    Ok::<_, ()>(())
                })
                .ok();
                let mut ns: Vec<f64> = (0..a.repeat).map(|_| run()).collect();
                ns.sort_by(f64::total_cmp);
                let med = ns[ns.len() / 2] / 1e3;
                println!("{},{g},{k},{med:.2},{:.3}", mode.name(), med / k as f64);
            }
        }
    }
    let wrong: Vec<(usize, u64, u64)> = counters
        .iter()
        .zip(&expected)
        .enumerate()
        .map(|(i, (c, &e))| (i, f.counted(c), e))
        .filter(|&(_, got, e)| got != e)
        .collect();
    if !wrong.is_empty() {
        for (i, got, e) in &wrong {
            eprintln!("error: counter {i} holds {got}, {e} dispatched workgroups added to it");
        }
        return ExitCode::FAILURE;
    }
    println!(
        "checked: {} counters hold the {} workgroups dispatched into them",
        counters.len(),
        expected.iter().sum::<u64>()
    );
    ExitCode::SUCCESS
}
