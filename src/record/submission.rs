//! Waiting for submitted work: blocking (with a short spin) or as a future, and the device-loss
//! and error checks on the way.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{Check, Results};
use crate::array::Storage;
use crate::context::Context;
use crate::error::{Error, Result, WgpuError};
use crate::pool::PooledBuffer;

/// Work submitted by [`Recorder::submit`](crate::Recorder::submit).
#[must_use = "call wait() to get the values read and to know the work has finished"]
pub struct Submission {
    pub(super) ctx: Context,
    pub(super) index: wgpu::SubmissionIndex,
    pub(super) recording: u64,
    /// The buffer mapped for the values read, and how many bytes of it.
    pub(super) staging: Option<(Staging, u64)>,
    pub(super) timestamp_offset: Option<u64>,
    /// Offsets in the results of the flags of checks on the GPU (u32::MAX: valid; else the
    /// first offence), and what each checks.
    pub(super) checks: Vec<(u64, Check)>,
}

impl Submission {
    /// Blocks until the GPU has finished this submission and returns the values read. With reads
    /// or timestamps this is one host round trip (one buffer map), however many values.
    ///
    /// Not on the web, where a blocking wait would never return (the browser delivers GPU
    /// events only once the calling code yields): there [`wait_async`](Self::wait_async) is
    /// the form.
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(docsrs, doc(cfg(not(target_arch = "wasm32"))))]
    pub fn wait(self) -> Result<Results> {
        let ctx = self.ctx.clone();
        let Some((staging, bytes)) = &self.staging else {
            let idle = || matches!(ctx.inner.device.poll(wgpu::PollType::Poll), Ok(s) if s.is_queue_empty());
            if !spin(&ctx, idle) {
                poll_wait(&ctx, self.index.clone())?;
            }
            ctx.check_alive()?;
            return Ok(self.results(Vec::new()));
        };
        let outcome: Arc<MapOutcome> = Arc::default();
        {
            let outcome = Arc::clone(&outcome);
            staging
                .buffer()
                .map_async(wgpu::MapMode::Read, 0..*bytes, move |r| {
                    *outcome.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                    outcome.1.notify_all();
                });
        }
        ctx.inner.counters.readbacks.fetch_add(1, Ordering::Relaxed);
        let mapped_early = || {
            let _ = ctx.inner.device.poll(wgpu::PollType::Poll);
            outcome
                .0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some()
        };
        let mapped = if spin(&ctx, mapped_early) {
            wait_for_map(&ctx, &outcome)
        } else {
            poll_wait(&ctx, self.index.clone()).and_then(|()| wait_for_map(&ctx, &outcome))
        };
        self.finish(mapped)
    }

    /// Waits for this submission without blocking the thread, and returns the values read: the
    /// form for async code and for the web (where the browser runs the GPU work and delivers
    /// the mapped buffer while the calling task is suspended). On native backends a helper
    /// thread waits for the submission in `Device::poll`, which runs the callback that wakes
    /// the task: the future does not ask to be polled again meanwhile.
    pub async fn wait_async(mut self) -> Result<Results> {
        let ctx = self.ctx.clone();
        let Some((staging, bytes)) = self.staging.take() else {
            let done = Arc::new(AsyncOutcome::default());
            {
                let done = Arc::clone(&done);
                ctx.inner
                    .queue
                    .on_submitted_work_done(move || done.set(Ok(())));
            }
            let _work_done: AsyncResult = MapFuture {
                ctx: &ctx,
                done,
                index: self.index.clone(),
                polling: Default::default(),
            }
            .await?;
            return Ok(self.results(Vec::new()));
        };
        let done = Arc::new(AsyncOutcome::default());
        {
            let done = Arc::clone(&done);
            staging
                .buffer()
                .map_async(wgpu::MapMode::Read, 0..bytes, move |r| done.set(r));
        }
        ctx.inner.counters.readbacks.fetch_add(1, Ordering::Relaxed);
        // If this future is dropped before the map completes, the buffer must not go back to
        // the pool while its map is pending.
        let mut guard = PendingMap(Some(staging));
        let mapped = MapFuture {
            ctx: &ctx,
            done,
            index: self.index.clone(),
            polling: Default::default(),
        }
        .await;
        self.staging = guard.0.take().map(|s| (s, bytes));
        self.finish(mapped)
    }

    /// Reads the mapped staging buffer (or handles a failed map) into [`Results`].
    fn finish(
        self,
        mapped: Result<std::result::Result<(), wgpu::BufferAsyncError>>,
    ) -> Result<Results> {
        let Some((staging, bytes)) = &self.staging else {
            return Ok(self.results(Vec::new()));
        };
        let data = match mapped {
            Ok(Ok(())) => {
                let copied = staging
                    .buffer()
                    .get_mapped_range(0..*bytes)
                    .map(|view| view.to_vec())
                    .map_err(|e| Error::MapFailed {
                        message: "reading the mapped results".into(),
                        source: Some(WgpuError::new(e)),
                    });
                staging.buffer().unmap();
                copied?
            }
            Ok(Err(e)) => {
                self.ctx.check_loss_after_failure()?;
                return Err(Error::MapFailed {
                    message: "mapping the results".into(),
                    source: Some(WgpuError::new(e)),
                });
            }
            Err(e) => {
                // A map may still be pending: keep the buffer out of the pool.
                if let Some((staging, _)) = self.staging {
                    staging.detach();
                }
                return Err(e);
            }
        };
        for &(at, check) in &self.checks {
            let at = at as usize;
            let flag: u32 = data
                .get(at..at + 4)
                .map(bytemuck::pod_read_unaligned)
                .unwrap_or(0);
            if flag != u32::MAX {
                return Err(check.error(flag));
            }
        }
        Ok(self.results(data))
    }

    fn results(&self, data: Vec<u8>) -> Results {
        let gpu_time = self.timestamp_offset.and_then(|off| {
            let at = off as usize;
            let t: [u64; 2] = bytemuck::pod_read_unaligned(data.get(at..at + 16)?);
            let period = f64::from(self.ctx.inner.queue.get_timestamp_period());
            let ticks = t[1].checked_sub(t[0])?;
            Some(Duration::from_nanos((ticks as f64 * period) as u64))
        });
        Results {
            recording: self.recording,
            bytes: data,
            gpu_time,
        }
    }
}

/// Where the values read come back: a staging buffer the reads were copied into, or the one
/// array read, whose own buffer the CPU can map (see [`ContextOptions::mapped_results`]).
///
/// [`ContextOptions::mapped_results`]: crate::ContextOptions::mapped_results
pub(super) enum Staging {
    Leased(PooledBuffer),
    Array(Arc<Storage>),
}

impl Staging {
    fn buffer(&self) -> &wgpu::Buffer {
        match self {
            Staging::Leased(b) => b.buffer(),
            Staging::Array(s) => s.buffer(),
        }
    }

    /// Keeps the buffer out of the pool for good (a map may still be pending on it).
    fn detach(self) {
        match self {
            Staging::Leased(b) => b.detach(),
            Staging::Array(s) => {
                if let Ok(Storage::Pooled(b)) = Arc::try_unwrap(s) {
                    b.detach();
                }
            }
        }
    }
}

/// Takes a staging buffer out of the pool for good when dropped still armed (its map may be
/// pending: a cancelled [`Submission::wait_async`]).
struct PendingMap(Option<Staging>);

impl Drop for PendingMap {
    fn drop(&mut self) {
        if let Some(staging) = self.0.take() {
            staging.detach();
        }
    }
}

/// A callback's result and the waker of the task waiting for it.
type AsyncResult = std::result::Result<(), wgpu::BufferAsyncError>;

#[derive(Default)]
struct AsyncOutcome(Mutex<(Option<AsyncResult>, Option<std::task::Waker>)>);

impl AsyncOutcome {
    fn set(&self, r: AsyncResult) {
        let mut slot = self.0.lock().unwrap_or_else(|e| e.into_inner());
        slot.0 = Some(r);
        if let Some(w) = slot.1.take() {
            w.wake();
        }
    }
}

/// Resolves when the callback has run; fails if the device is lost meanwhile.
struct MapFuture<'a> {
    ctx: &'a Context,
    done: Arc<AsyncOutcome>,
    /// The submission waited for.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    index: wgpu::SubmissionIndex,
    /// Whether a thread polls the device for this future (native backends).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    polling: std::sync::atomic::AtomicBool,
}

impl std::future::Future for MapFuture<'_> {
    type Output = Result<AsyncResult>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        use std::task::Poll;
        if let Err(e) = self.ctx.check_alive() {
            return Poll::Ready(Err(e));
        }
        {
            let mut slot = self.done.0.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(r) = slot.0.take() {
                return Poll::Ready(Ok(r));
            }
            slot.1 = Some(cx.waker().clone());
        }
        #[cfg(not(target_arch = "wasm32"))]
        if !self
            .polling
            .swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            // Native backends run callbacks from Device::poll: one thread waits for the
            // submission there, so the callback wakes this task (the browser needs no help).
            let device = self.ctx.inner.device.clone();
            let index = self.index.clone();
            let spawned = std::thread::Builder::new()
                .name("wgpu-reduce wait".into())
                .spawn(move || {
                    let _ = device.poll(wgpu::PollType::Wait {
                        submission_index: Some(index),
                        timeout: None,
                    });
                    let _ = device.poll(wgpu::PollType::Poll);
                });
            if spawned.is_err() {
                // No thread: fall back to polling here and asking to be polled again.
                self.polling
                    .store(false, std::sync::atomic::Ordering::Relaxed);
                let _ = self.ctx.inner.device.poll(wgpu::PollType::Poll);
                cx.waker().wake_by_ref();
            }
        }
        Poll::Pending
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// The result of a `map_async` callback, and a condition variable to wait for it.
type MapOutcome = (
    Mutex<Option<std::result::Result<(), wgpu::BufferAsyncError>>>,
    std::sync::Condvar,
);

#[cfg(not(target_arch = "wasm32"))]
/// How long to wait for a map callback after the GPU has finished before giving up.
const MAP_CALLBACK_TIMEOUT: Duration = Duration::from_secs(30);

#[cfg(not(target_arch = "wasm32"))]
/// Waits for the map callback. `Device::poll` returning does not mean the callback has run: when
/// several threads poll one device, another thread's poll may be the one delivering it, just
/// after ours returned. So wait on the condition variable, polling again meanwhile (without
/// holding the lock, since the callback may run inside that poll and take it).
fn wait_for_map(
    ctx: &Context,
    outcome: &MapOutcome,
) -> Result<std::result::Result<(), wgpu::BufferAsyncError>> {
    let start = std::time::Instant::now();
    loop {
        {
            let guard = outcome.0.lock().unwrap_or_else(|e| e.into_inner());
            let (mut guard, _) = outcome
                .1
                .wait_timeout_while(guard, Duration::from_millis(1), |r| r.is_none())
                .unwrap_or_else(|e| e.into_inner());
            if let Some(r) = guard.take() {
                return Ok(r);
            }
        }
        if start.elapsed() > MAP_CALLBACK_TIMEOUT {
            return Err(Error::MapFailed {
                message: format!(
                    "the map callback had not run {MAP_CALLBACK_TIMEOUT:?} after the GPU finished"
                ),
                source: None,
            });
        }
        let _ = ctx.inner.device.poll(wgpu::PollType::Poll);
        ctx.check_alive()?;
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Calls `done` (which polls the device without blocking) until it says yes or the context's
/// spin time ([`ContextOptions::wait_spin`]) has passed; returns whether it said yes. A blocking
/// wait in NVIDIA's Vulkan driver returned about 45 µs after the GPU had finished (H200: a
/// one-reduction call waited 55 µs for 8 µs of GPU work); spinning notices within a poll, at
/// the cost of a busy core for at most the spin time (CUDA's default synchronisation also spins).
///
/// [`ContextOptions::wait_spin`]: crate::ContextOptions::wait_spin
fn spin(ctx: &Context, mut done: impl FnMut() -> bool) -> bool {
    let limit = ctx.inner.wait_spin;
    if limit.is_zero() {
        return false;
    }
    let start = std::time::Instant::now();
    loop {
        if done() {
            return true;
        }
        if start.elapsed() >= limit {
            return false;
        }
        std::hint::spin_loop();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn poll_wait(ctx: &Context, index: wgpu::SubmissionIndex) -> Result<()> {
    ctx.inner
        .device
        .poll(wgpu::PollType::Wait {
            submission_index: Some(index),
            timeout: None,
        })
        .map(|_| ())
        .map_err(|e| {
            if matches!(e, wgpu::PollError::Timeout) {
                Error::PollFailed {
                    source: WgpuError::new(e),
                }
            } else {
                ctx.mark_lost(e.to_string());
                Error::DeviceLost {
                    reason: e.to_string(),
                }
            }
        })?;
    ctx.check_alive()
}
