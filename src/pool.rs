//! A pool of GPU buffers that reuses allocations between calls.
//!
//! Temporaries (partial results, reduction outputs, readback staging) are leased from the pool,
//! keyed by (size class, usage). A size class is the request rounded up to a power of two (at least
//! [`MIN_CLASS_BYTES`]; above [`LARGE_CLASS_BYTES`] it rounds to a multiple of that instead), so a
//! slightly different size reuses the same buffer.
//!
//! A lease goes back to the pool when its last owner drops it, but not while the GPU may still use
//! it: a dropped lease waits in a pending list, and pending buffers become free the next time the
//! pool is asked for a buffer (or for its statistics) and a non-blocking `Device::poll` reports
//! that the queue is empty, i.e. that all work submitted before the drop has finished. (So under
//! a constant stream of work from other threads, buffers stay pending and new ones are made.)
//! Work recorded into a caller's encoder that the caller has not submitted yet is not covered by
//! this; it stays correct because every use of a storage temporary is a GPU command on the one
//! queue, which wgpu orders and fences in submission order, and the library makes no host writes
//! to such buffers after handing them out.
//!
//! With a cap ([`ContextOptions::pool_cap_bytes`](crate::ContextOptions::pool_cap_bytes)) the
//! pool releases free buffers, largest first, whenever keeping them (or making a new one) would
//! take the bytes it holds past the cap.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use crate::error::{Error, Result};

/// Smallest size class, in bytes.
pub const MIN_CLASS_BYTES: u64 = 256;
/// Above this size, classes are multiples of it rather than powers of two.
pub const LARGE_CLASS_BYTES: u64 = 64 << 20;

/// Rounds a request up to its size class.
pub fn size_class(bytes: u64) -> u64 {
    let b = bytes.max(MIN_CLASS_BYTES);
    if b > LARGE_CLASS_BYTES {
        b.div_ceil(LARGE_CLASS_BYTES) * LARGE_CLASS_BYTES
    } else {
        b.next_power_of_two()
    }
}

/// Counters describing what the pool has done and holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Buffers created because no free buffer of the class existed.
    pub allocations: u64,
    /// Leases served by a buffer that was already in the pool.
    pub reuses: u64,
    /// Bytes of all buffers the pool owns (leased out plus free).
    pub bytes_held: u64,
    /// Bytes currently leased out.
    pub bytes_in_use: u64,
    /// Bytes of free buffers waiting for reuse.
    pub bytes_free: u64,
    /// Number of free buffers waiting for reuse.
    pub buffers_free: usize,
    /// The largest `bytes_held` seen since the pool was created (or [`reset_high_water`]).
    ///
    /// [`reset_high_water`]: crate::Context::reset_pool_high_water
    pub high_water_bytes: u64,
    /// Free buffers released to stay under the cap.
    pub evictions: u64,
    /// The most bytes leased out at once so far: what the work needed at its peak (for one
    /// recording of K reductions, all their temporaries), to compare `bytes_held` with.
    pub peak_in_use_bytes: u64,
}

type Key = (u64, wgpu::BufferUsages);

#[derive(Default)]
struct Inner {
    free: HashMap<Key, Vec<wgpu::Buffer>>,
    stats: PoolStats,
    /// Dropped leases waiting for the GPU to finish before they become free.
    pending: Vec<(Key, wgpu::Buffer)>,
    /// Most bytes to hold, if capped.
    cap: Option<u64>,
}

impl Inner {
    fn update_high_water(&mut self) {
        self.stats.bytes_held = self.stats.bytes_in_use + self.stats.bytes_free;
        self.stats.high_water_bytes = self.stats.high_water_bytes.max(self.stats.bytes_held);
        self.stats.peak_in_use_bytes = self.stats.peak_in_use_bytes.max(self.stats.bytes_in_use);
    }

    /// Releases free buffers, largest first, until `need` more bytes fit under the cap (or
    /// nothing free is left).
    fn evict_for(&mut self, need: u64) {
        let Some(cap) = self.cap else { return };
        while self.stats.bytes_in_use + self.stats.bytes_free + need > cap {
            let Some(key) = self
                .free
                .iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, _)| *k)
                .max_by_key(|k| k.0)
            else {
                return;
            };
            if let Some(buffer) = self.free.get_mut(&key).and_then(Vec::pop) {
                buffer.destroy();
                self.stats.bytes_free -= key.0;
                self.stats.buffers_free -= 1;
                self.stats.evictions += 1;
            }
        }
        self.stats.bytes_held = self.stats.bytes_in_use + self.stats.bytes_free;
    }
}

/// The pool. Cheap to clone (shared state).
#[derive(Clone, Default)]
pub(crate) struct Pool {
    inner: Arc<Mutex<Inner>>,
}

/// A buffer leased from the pool; it goes back when dropped.
#[derive(Debug)]
pub(crate) struct PooledBuffer {
    buffer: wgpu::Buffer,
    key: Key,
    pool: Weak<Mutex<Inner>>,
}

impl PooledBuffer {
    pub(crate) fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// Takes the buffer out of the pool for good (e.g. a map may still be pending on it).
    pub(crate) fn detach(mut self) {
        if let Some(pool) = self.pool.upgrade() {
            let mut inner = lock(&pool);
            inner.stats.bytes_in_use -= self.key.0;
            inner.update_high_water();
        }
        self.pool = Weak::new();
    }
}

impl Drop for PooledBuffer {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.upgrade() {
            lock(&pool).pending.push((self.key, self.buffer.clone()));
        }
    }
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    // A panic while the lock was held cannot leave the counters half-updated in a way that
    // matters for safety, so a poisoned lock is recovered rather than propagated.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Pool {
    /// A pool that holds at most `cap` bytes where it can (see the module docs).
    pub(crate) fn with_cap(cap: Option<u64>) -> Pool {
        let pool = Pool::default();
        lock(&pool.inner).cap = cap;
        pool
    }

    /// Leases a buffer of at least `bytes` bytes with exactly `usage`.
    pub(crate) fn acquire(
        &self,
        device: &wgpu::Device,
        bytes: u64,
        usage: wgpu::BufferUsages,
        max_buffer_size: u64,
    ) -> Result<PooledBuffer> {
        let class = size_class(bytes);
        let key = (class, usage);
        self.collect_returns(device);
        {
            let mut inner = lock(&self.inner);
            if let Some(buffer) = inner.free.get_mut(&key).and_then(Vec::pop) {
                inner.stats.reuses += 1;
                inner.stats.bytes_free -= class;
                inner.stats.buffers_free -= 1;
                inner.stats.bytes_in_use += class;
                inner.update_high_water();
                return Ok(self.lease(buffer, key));
            }
        }
        // Fall back to the exact size if the class would cross the device limit.
        let alloc = if class > max_buffer_size {
            bytes.div_ceil(16) * 16
        } else {
            class
        };
        if alloc > max_buffer_size {
            return Err(Error::TooLarge {
                what: "a temporary buffer".into(),
                bytes: alloc,
                limit: max_buffer_size,
                limit_name: "max_buffer_size",
            });
        }
        lock(&self.inner).evict_for(alloc);
        let buffer = allocate(device, alloc, usage)?;
        let key = (alloc, usage);
        let mut inner = lock(&self.inner);
        inner.stats.allocations += 1;
        inner.stats.bytes_in_use += alloc;
        inner.update_high_water();
        drop(inner);
        Ok(self.lease(buffer, key))
    }

    fn lease(&self, buffer: wgpu::Buffer, key: Key) -> PooledBuffer {
        PooledBuffer {
            buffer,
            key,
            pool: Arc::downgrade(&self.inner),
        }
    }

    /// Frees the pending (dropped) leases if the GPU has finished all submitted work.
    fn collect_returns(&self, device: &wgpu::Device) {
        // Only leases dropped before this poll are taken: their GPU work was submitted before it.
        let pending = std::mem::take(&mut lock(&self.inner).pending);
        if pending.is_empty() {
            return;
        }
        let idle =
            matches!(device.poll(wgpu::PollType::Poll), Ok(status) if status.is_queue_empty());
        let mut inner = lock(&self.inner);
        if idle {
            for (key, buffer) in pending {
                inner.stats.bytes_in_use -= key.0;
                inner.stats.bytes_free += key.0;
                inner.stats.buffers_free += 1;
                inner.free.entry(key).or_default().push(buffer);
            }
            inner.evict_for(0);
        } else {
            inner.pending.extend(pending);
        }
    }

    pub(crate) fn stats(&self, device: &wgpu::Device) -> PoolStats {
        self.collect_returns(device);
        lock(&self.inner).stats
    }

    /// Drops every free buffer; leased buffers (and those the GPU still uses) are unaffected.
    pub(crate) fn trim(&self, device: &wgpu::Device) {
        self.collect_returns(device);
        let mut inner = lock(&self.inner);
        inner.free.clear();
        inner.stats.bytes_free = 0;
        inner.stats.buffers_free = 0;
        inner.update_high_water();
    }

    pub(crate) fn reset_high_water(&self) {
        let mut inner = lock(&self.inner);
        inner.stats.high_water_bytes = inner.stats.bytes_held;
    }
}

/// A new buffer; running out of device memory is an [`Error::OutOfMemory`] (on the web, where
/// the error scope cannot be awaited here, it reaches the context's error handler instead and
/// the next call returns it).
fn allocate(device: &wgpu::Device, size: u64, usage: wgpu::BufferUsages) -> Result<wgpu::Buffer> {
    let descriptor = wgpu::BufferDescriptor {
        label: Some("wgpu-reduce pooled"),
        size,
        usage,
        mapped_at_creation: false,
    };
    #[cfg(not(target_arch = "wasm32"))]
    {
        let scope = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = device.create_buffer(&descriptor);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::from_wgpu(e, "allocating a temporary buffer"));
        }
        Ok(buffer)
    }
    #[cfg(target_arch = "wasm32")]
    Ok(device.create_buffer(&descriptor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes_round_up() {
        assert_eq!(size_class(0), 256);
        assert_eq!(size_class(4), 256);
        assert_eq!(size_class(257), 512);
        assert_eq!(size_class(4096), 4096);
        assert_eq!(size_class(4097), 8192);
        assert_eq!(size_class(LARGE_CLASS_BYTES), LARGE_CLASS_BYTES);
        assert_eq!(size_class(LARGE_CLASS_BYTES + 1), 2 * LARGE_CLASS_BYTES);
        assert_eq!(size_class(3 * LARGE_CLASS_BYTES - 5), 3 * LARGE_CLASS_BYTES);
    }
}
