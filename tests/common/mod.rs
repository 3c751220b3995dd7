//! Helpers shared by the GPU tests: one Context per configuration, seeded random inputs, CPU
//! references in f64, and float tolerances.
#![allow(dead_code)]

use std::sync::OnceLock;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgpu_reduce::{Context, ContextOptions};

fn make(subgroups: wgpu_reduce::Subgroups) -> Context {
    let options = ContextOptions::default()
        .with_subgroups(subgroups)
        .with_testing(wgpu_reduce::Testing::poisoned());
    match Context::with_options(options) {
        Ok(ctx) => {
            let caps = ctx.capabilities();
            // Written to stderr directly (not eprintln!), so the test harness does not capture
            // it: every run shows which adapter the GPU tests used, and CI checks for the line.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "GPU tests run on adapter {:?} ({:?}, driver {:?}); tuning {:?}; subgroup sizes {}..{}",
                caps.adapter.name,
                caps.adapter.backend,
                caps.adapter.driver_info,
                ctx.tuning(),
                caps.subgroup_min_size,
                caps.subgroup_max_size
            );
            ctx
        }
        // No silent skip: a missing driver must fail the run, not turn into green skipped tests.
        Err(e) => panic!("no GPU adapter for the GPU tests: {e}"),
    }
}

/// The shared context with subgroups enabled where the device has them.
pub fn ctx() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(|| make(wgpu_reduce::Subgroups::Auto))
}

/// A context forced onto the shared-memory fallback (no subgroup operations).
pub fn ctx_fallback() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    CTX.get_or_init(|| make(wgpu_reduce::Subgroups::Off))
}

/// A new context of its own with poisoned temporaries.
pub fn poisoned_context() -> Context {
    Context::with_options(ContextOptions::default().with_testing(wgpu_reduce::Testing::poisoned()))
        .expect("context")
}

/// Both configurations (the second only differs if the device has subgroups).
pub fn contexts() -> Vec<&'static Context> {
    let mut v = vec![ctx_fallback()];
    if ctx().tuning().subgroups {
        v.push(ctx());
    }
    v
}

/// A device and queue made the way an application would (default features: no SUBGROUP,
/// SHADER_F16 or TIMESTAMP_QUERY), for tests of `Context::from_wgpu`.
pub fn app_device() -> (wgpu::Device, wgpu::Queue) {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&Default::default())).expect("adapter");
    pollster::block_on(adapter.request_device(&Default::default())).expect("device")
}

/// A fresh seeded RNG; the seed is printed so a failure can be replayed with WGPU_REDUCE_SEED.
pub fn rng(test: &str) -> StdRng {
    let seed = std::env::var("WGPU_REDUCE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().gen::<u64>());
    eprintln!("{test}: seed {seed} (replay with WGPU_REDUCE_SEED={seed})");
    StdRng::seed_from_u64(seed)
}

/// Share of the cases of the exhaustive sweeps a run checks: all of them, unless
/// `WGPU_REDUCE_SWEEP` (a fraction in (0, 1]) asks for fewer. CI's second run of the whole suite,
/// on wgpu's GL backend, uses it: llvmpipe's GL compiler takes seconds for each new kernel, and
/// the sweeps build hundreds. Which cases run is drawn from the test's seeded RNG (so a failing
/// run replays with its printed seed), a different share on every run.
pub fn sweep_fraction() -> f64 {
    std::env::var("WGPU_REDUCE_SWEEP")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|f| *f > 0.0 && *f <= 1.0)
        .unwrap_or(1.0)
}

/// Whether this run checks the next case of a sweep (see [`sweep_fraction`]).
pub fn keep_case(rng: &mut StdRng) -> bool {
    let f = sweep_fraction();
    f >= 1.0 || rng.gen_bool(f)
}

/// A sampled sweep over groups of cases (an operation and an element type, say): which cases run
/// is drawn as [`keep_case`] says, but the first case of every group always runs, so no group is
/// ever left unchecked. [`Sweep::finish`] asserts that every group ran at least once, that all
/// cases ran when the sweep is not cut short, and otherwise that at least the share asked for
/// ran, less four standard deviations.
pub struct Sweep {
    name: &'static str,
    groups: std::collections::BTreeMap<String, (usize, usize)>,
    /// The share of the cases beyond each group's first that run (see [`Sweep::scaled`]).
    fraction: f64,
}

impl Sweep {
    pub fn new(name: &'static str) -> Sweep {
        Sweep {
            name,
            groups: Default::default(),
            fraction: sweep_fraction(),
        }
    }

    /// A sweep that checks `share` of its cases on every run (times the run's share when it is
    /// cut short), drawn afresh each run: for sweeps of many more kernels than any one run
    /// needs to compile (every group still runs at least once).
    pub fn scaled(name: &'static str, share: f64) -> Sweep {
        Sweep {
            fraction: sweep_fraction() * share,
            ..Sweep::new(name)
        }
    }

    /// Whether the next case of `group` runs; counts it. When the sweep is cut short, the
    /// group is the first word of its name (the operation or algorithm: each still runs at
    /// least once, on some type and shape); llvmpipe's GL compiler takes seconds a kernel, and
    /// a group per operation and type would compile hundreds.
    pub fn keep(&mut self, group: impl std::fmt::Display, rng: &mut StdRng) -> bool {
        let mut group = group.to_string();
        if sweep_fraction() < 1.0 {
            group = group.split(' ').next().unwrap_or("").to_string();
        }
        let e = self.groups.entry(group).or_default();
        e.0 += 1;
        let keep = e.1 == 0 || self.fraction >= 1.0 || rng.gen_bool(self.fraction);
        if keep {
            e.1 += 1;
        }
        keep
    }

    /// Checks the counts (see [`Sweep`]) and returns the cases checked.
    pub fn finish(self) -> usize {
        let f = self.fraction;
        let total: usize = self.groups.values().map(|g| g.0).sum();
        let checked: usize = self.groups.values().map(|g| g.1).sum();
        for (group, (n, k)) in &self.groups {
            assert!(
                *k >= 1,
                "{}: group {group} checked none of {n} cases",
                self.name
            );
        }
        let groups = self.groups.len();
        let sampled = (total - groups) as f64;
        let floor = groups as f64 + f * sampled - 4.0 * (f * (1.0 - f) * sampled).sqrt();
        let want = if f >= 1.0 {
            total
        } else {
            floor.max(groups as f64) as usize
        };
        assert!(
            checked >= want,
            "{}: checked {checked} of {total} cases, want at least {want} (fraction {f})",
            self.name
        );
        println!(
            "{}: checked {checked} of {total} cases in {groups} groups (fraction {f})",
            self.name
        );
        checked
    }
}

pub fn random_f32(rng: &mut StdRng, n: usize) -> Vec<f32> {
    (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect()
}

pub fn random_i32(rng: &mut StdRng, n: usize) -> Vec<i32> {
    (0..n).map(|_| rng.gen::<i32>()).collect()
}

pub fn random_u32(rng: &mut StdRng, n: usize) -> Vec<u32> {
    (0..n).map(|_| rng.gen::<u32>()).collect()
}

/// Tolerance of an f32 sum of `n` values whose magnitudes add up to `sum_abs`, against the exact
/// (f64) sum, for a context with `tuning`: the library's stated worst-case bound
/// ([`wgpu_reduce::Tuning::f32_sum_error_bound`]) plus the smallest normal f32.
pub fn f32_sum_tolerance(n: usize, sum_abs: f64, tuning: wgpu_reduce::Tuning) -> f64 {
    tuning.f32_sum_error_bound(n, sum_abs) + f64::from(f32::MIN_POSITIVE)
}

/// Lengths that cover the edges: tiny, around the vec4 width, around workgroup sizes, around the
/// first pass's per-workgroup share, and large ones that take two passes.
pub const LENGTHS: &[usize] = &[
    1,
    2,
    3,
    4,
    5,
    7,
    8,
    63,
    64,
    65,
    255,
    256,
    257,
    1023,
    1024,
    1025,
    4095,
    4096,
    4097,
    65537,
    (1 << 20) + 3,
];
pub mod keys;
pub mod reference;
#[macro_use]
pub mod run;
pub mod scan_ref;
