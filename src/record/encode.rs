//! Encoding and submitting a recording: every dispatch's parameters in one uniform buffer, the
//! dispatches in one compute pass (bind groups kept for reuse), the readback copies after it,
//! and one `Queue::submit`; or the dispatches into a caller's encoder.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use super::submission::Staging;
use super::{Dispatch, Recorder, Submission};
use crate::array::{RawArray, Storage};
use crate::context::bind_groups::{Binding, Key, Watched};
use crate::context::Inner;
use crate::error::Result;
use crate::kernels::params::PARAMS_BYTES;

/// What dispatch `i` of a recording binds at binding 4: its auxiliary array, or one of the
/// context's stand-ins (see [`INDEPENDENT_SLOTS`](crate::kernels::INDEPENDENT_SLOTS)).
fn aux_buffer(d: &Dispatch, i: usize, inner: &Inner) -> wgpu::Buffer {
    match &d.aux {
        Some(a) => a.buffer().clone(),
        None => inner.dummy_aux.get(&inner.device, i),
    }
}

/// A dispatch's storage buffers, each with whether it is bound read-write.
type Uses = Vec<(wgpu::Buffer, bool)>;

/// Each buffer's last use so far (written: true, or only read) after a dispatch's `uses`,
/// which replace the earlier ones; a buffer it binds both ways counts as written.
// wgpu::Buffer hashes and compares by its identity, which never changes.
#[allow(clippy::mutable_key_type)]
fn note_uses(last: &mut HashMap<wgpu::Buffer, bool>, uses: &Uses) {
    for (b, _) in uses {
        let written = uses.iter().any(|(c, write)| *write && c == b);
        last.insert(b.clone(), written);
    }
}

/// See [`Recorder::schedule_of`].
pub(crate) struct Schedule {
    /// Dispatch indices in the order encoded.
    order: Vec<usize>,
    /// For each position of `order`, the buffers made read-only storage before it.
    transitions: Vec<Vec<wgpu::Buffer>>,
}

impl Schedule {
    /// `n` dispatches in the order recorded, no transitions.
    pub(crate) fn recorded(n: usize) -> Schedule {
        Schedule {
            order: (0..n).collect(),
            transitions: vec![Vec::new(); n],
        }
    }
}

impl Recorder {
    /// The barriers wgpu puts into `schedule`'s encoding (see [`barriers`](Self::barriers)),
    /// given every dispatch's [`uses`](Self::uses).
    // wgpu::Buffer hashes and compares by its identity, which never changes.
    #[allow(clippy::mutable_key_type)]
    pub(crate) fn count_barriers(&self, schedule: &Schedule, uses: &[Uses]) -> usize {
        // Each buffer's last use so far: written (true) or only read.
        let mut last: HashMap<wgpu::Buffer, bool> = HashMap::new();
        let mut barriers = 0;
        for (&i, transition) in schedule.order.iter().zip(&schedule.transitions) {
            // A transition to read-only storage: one barrier for the buffers it names.
            if !transition.is_empty() {
                barriers += 1;
                for b in transition {
                    last.insert(b.clone(), false);
                }
            }
            let wait = uses[i].iter().any(|(b, write)| match last.get(b) {
                Some(&was_written) => *write || was_written,
                None => false,
            });
            barriers += usize::from(wait);
            note_uses(&mut last, &uses[i]);
        }
        barriers
    }

    /// Dispatch `i`'s storage buffers, each with whether it is bound read-write: bindings 0, 1
    /// and 5 are read-only, 2 and 4 read-write.
    fn uses(&self, i: usize, d: &Dispatch) -> Uses {
        (self.storage_bindings(i, d).into_iter())
            .map(|(buffer, _, _)| buffer)
            .zip([false, false, true, true, false])
            .collect()
    }

    /// Every dispatch's [`uses`](Self::uses), in the order recorded.
    pub(crate) fn all_uses(&self) -> Vec<Uses> {
        (self.dispatches.iter().enumerate())
            .map(|(i, d)| self.uses(i, d))
            .collect()
    }

    /// The encoding's [`schedule_of`](Self::schedule_of), its uses looked up only where there
    /// are two dispatches or more.
    fn schedule(&self) -> Schedule {
        match self.dispatches.len() {
            0 | 1 => Schedule::recorded(self.dispatches.len()),
            _ => self.schedule_of(&self.all_uses()),
        }
    }

    /// The order in which the dispatches are encoded, and the buffers made read-only storage
    /// before each of them. Each dispatch takes the level after the
    /// highest of the earlier ones it must follow (those that wrote a buffer it uses, or used
    /// one it writes), and the dispatches run level by level, in the order recorded within a
    /// level; before a level, the buffers that an earlier level wrote and that its dispatches
    /// only read are made read-only storage at once, where that spares two or more of them
    /// their own barrier (those that write no buffer used before), so that wgpu puts one
    /// barrier there instead of one before each (each of which, on Vulkan and DX12, waits for
    /// every dispatch before it). Where that order has no fewer barriers than the order
    /// recorded, the order recorded is kept.
    // wgpu::Buffer hashes and compares by its identity, which never changes.
    #[allow(clippy::mutable_key_type)]
    pub(crate) fn schedule_of(&self, uses: &[Uses]) -> Schedule {
        let n = self.dispatches.len();
        let recorded = Schedule::recorded(n);
        if n < 2 {
            return recorded;
        }
        // Per buffer: the highest level that wrote it, and that used it, so far.
        let mut seen: HashMap<wgpu::Buffer, (Option<usize>, usize)> = HashMap::new();
        let mut levels = Vec::with_capacity(n);
        for u in uses {
            let level = (u.iter())
                .filter_map(|(b, write)| {
                    let &(wrote, used) = seen.get(b)?;
                    if *write {
                        Some(used + 1)
                    } else {
                        wrote.map(|w| w + 1)
                    }
                })
                .max()
                .unwrap_or(0);
            for (b, write) in u {
                let e = seen.entry(b.clone()).or_insert((None, level));
                e.1 = e.1.max(level);
                if *write {
                    e.0 = Some(e.0.map_or(level, |w| w.max(level)));
                }
            }
            levels.push(level);
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| levels[i]);
        let mut transitions = vec![Vec::new(); n];
        // Written so far in the encoded order (true) or only read.
        let mut last: HashMap<wgpu::Buffer, bool> = HashMap::new();
        let mut at = 0;
        while at < n {
            let level = levels[order[at]];
            let end = at
                + order[at..]
                    .iter()
                    .take_while(|&&i| levels[i] == level)
                    .count();
            // The members that wait only for buffers they read (none they write was used
            // before): a transition of those buffers spares each of them its barrier. Worth it
            // where it spares two or more.
            let spared: Vec<usize> = (order[at..end].iter().copied())
                .filter(|&i| {
                    let u = &uses[i];
                    let writes_used = u.iter().any(|(b, w)| *w && last.contains_key(b));
                    let reads_written = u.iter().any(|(b, _)| last.get(b) == Some(&true));
                    !writes_used && reads_written
                })
                .collect();
            if spared.len() > 1 {
                let mut names: Vec<wgpu::Buffer> = Vec::new();
                for (b, _) in spared.iter().flat_map(|&i| uses[i].iter()) {
                    if last.get(b) == Some(&true) && !names.contains(b) {
                        names.push(b.clone());
                    }
                }
                transitions[at] = names;
            }
            for &i in &order[at..end] {
                note_uses(&mut last, &uses[i]);
            }
            at = end;
        }
        let levelled = Schedule { order, transitions };
        // Levels can also part barriers that the order recorded shares (chains of operations
        // that write one array each, interleaved): the fewer barriers win, the order recorded
        // on a tie.
        if self.count_barriers(&levelled, uses) < self.count_barriers(&recorded, uses) {
            levelled
        } else {
            recorded
        }
    }

    /// Whether no handle outside this recording holds `storage` (every reference to it is one
    /// of the recording's dispatches or reads): then mapping it for the read cannot make a use
    /// of it elsewhere fail (an array the caller still holds, read by `Context::run`, is copied).
    fn only_here(&self, storage: &Arc<Storage>) -> bool {
        let same = |a: &RawArray| Arc::ptr_eq(&a.storage, storage);
        let in_dispatches: usize = self
            .dispatches
            .iter()
            .map(|d| {
                [
                    Some(&d.src),
                    Some(&d.dst),
                    d.aux.as_ref(),
                    d.carries.as_ref(),
                ]
                .into_iter()
                .chain([d.second.as_ref().map(|(b, _)| b)])
                .flatten()
                .filter(|a| same(a))
                .count()
            })
            .sum();
        let in_reads = self.reads.iter().filter(|r| same(&r.src)).count();
        Arc::strong_count(storage) == in_dispatches + in_reads
    }

    /// What dispatch `i` binds at bindings 0-2, 4 and 5 (read-only views of its input, its
    /// output, its auxiliary array or a stand-in, a downsweep's tile totals or the dummy), each
    /// as (buffer, offset, size; 0: whole).
    fn storage_bindings(&self, i: usize, d: &Dispatch) -> [Binding; 5] {
        let inner = &self.ctx.inner;
        // Windows count from the array's start; a caller's range starts at its offset.
        let src = d.src.buffer();
        let at = d.src_window.start;
        let needed = d.src_window.end - at;
        let avail = d.src.capacity() - at;
        let at = at + d.src.offset();
        let vec_bytes = (needed.div_ceil(16) * 16).min(avail) / 16 * 16;
        let scalar_bytes = (needed.div_ceil(4) * 4).min(avail) / 4 * 4;
        // A range of a buffer, or the dummy (size 0: bound whole) where it is empty.
        let view = |buffer: &wgpu::Buffer, offset: u64, bytes: u64| -> Binding {
            match bytes {
                0 => (inner.dummy.clone(), 0, 0),
                _ => (buffer.clone(), offset, bytes),
            }
        };
        let binding0 = match &d.second {
            Some((b, window)) => {
                let bytes = (window.end - window.start).div_ceil(4) * 4;
                let bytes = bytes.min(b.capacity() - window.start) / 4 * 4;
                view(b.buffer(), b.offset() + window.start, bytes)
            }
            None => view(src, at, vec_bytes),
        };
        let dst_bytes = d.dst_window.end - d.dst_window.start;
        [
            binding0,
            view(src, at, scalar_bytes),
            view(
                d.dst.buffer(),
                d.dst.offset() + d.dst_window.start,
                dst_bytes,
            ),
            match (&d.aux, &d.aux_window) {
                (Some(a), Some(w)) => view(a.buffer(), a.offset() + w.start, w.end - w.start),
                _ => (aux_buffer(d, i, inner), 0, 0),
            },
            match &d.carries {
                Some(c) => (c.buffer().clone(), 0, 0),
                None => (inner.dummy_carries.clone(), 0, 0),
            },
        ]
    }

    /// Encodes the dispatches into `encoder` as one compute pass, with params at `stride`
    /// intervals in `params`.
    pub(crate) fn encode_dispatches(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        params: &wgpu::Buffer,
        stride: u64,
        timestamps: Option<&wgpu::QuerySet>,
    ) {
        if self.dispatches.is_empty() {
            return;
        }
        let inner = &self.ctx.inner;
        let mut cache = inner.bind_groups.lock().unwrap_or_else(|e| e.into_inner());
        let bind_groups: Vec<wgpu::BindGroup> = self
            .dispatches
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let [b0, b1, b2, b4, b5] = self.storage_bindings(i, d);
                let key = Key([
                    b0,
                    b1,
                    b2,
                    b4,
                    b5,
                    (params.clone(), i as u64 * stride, PARAMS_BYTES),
                ]);
                // The caller's arrays must stay alive for a kept bind group to be used (the
                // pool's buffers are the pool's, the context's its own).
                let watched: Vec<Watched> = [Some(&d.src), Some(&d.dst), d.aux.as_ref()]
                    .into_iter()
                    .chain([d.carries.as_ref()])
                    .chain([d.second.as_ref().map(|(b, _)| b)])
                    .flatten()
                    .filter(|a| !matches!(*a.storage, Storage::Pooled(_) | Storage::Context(_)))
                    .map(|a| {
                        let w: Watched = Arc::downgrade(&a.storage) as Weak<_>;
                        w
                    })
                    .collect();
                let entries = key.0.clone();
                cache.get_or_make(key, watched, || {
                    inner.counters.bind_groups.fetch_add(1, Ordering::Relaxed);
                    fn resource((buffer, offset, size): &Binding) -> wgpu::BindingResource<'_> {
                        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer,
                            offset: *offset,
                            size: wgpu::BufferSize::new(*size),
                        })
                    }
                    inner.device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: None,
                        layout: &inner.kernels.layout,
                        entries: &[0, 1, 2, 4, 5, 3].map(|binding| wgpu::BindGroupEntry {
                            binding,
                            resource: resource(
                                &entries[match binding {
                                    4 => 3,
                                    5 => 4,
                                    3 => 5,
                                    b => b as usize,
                                }],
                            ),
                        }),
                    })
                })
            })
            .collect();
        drop(cache);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("wgpu-reduce"),
            timestamp_writes: timestamps.map(|query_set| wgpu::ComputePassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: Some(1),
            }),
        });
        let schedule = self.schedule();
        for (&i, transition) in schedule.order.iter().zip(&schedule.transitions) {
            if !transition.is_empty() {
                pass.transition_resources(
                    transition.iter().map(|buffer| wgpu::BufferTransition {
                        buffer,
                        state: wgpu::BufferUses::STORAGE_READ_ONLY,
                    }),
                    std::iter::empty(),
                );
            }
            let d = &self.dispatches[i];
            pass.set_pipeline(&d.pipeline);
            pass.set_bind_group(0, &bind_groups[i], &[]);
            pass.dispatch_workgroups(d.grid.0, d.grid.1, d.grid.2);
        }
        drop(pass);
        inner
            .counters
            .dispatches
            .fetch_add(self.dispatches.len() as u64, Ordering::Relaxed);
    }

    pub(crate) fn params_bytes(&self, stride: u64) -> Vec<u8> {
        let mut bytes = vec![0u8; (stride as usize) * self.dispatches.len().max(1)];
        for (i, d) in self.dispatches.iter().enumerate() {
            let at = i * stride as usize;
            bytes[at..at + PARAMS_BYTES as usize].copy_from_slice(bytemuck::bytes_of(&d.params));
        }
        bytes
    }

    pub(crate) fn params_stride(&self) -> u64 {
        u64::from(
            self.ctx
                .inner
                .caps
                .limits
                .min_uniform_buffer_offset_alignment,
        )
        .max(PARAMS_BYTES)
    }

    pub(crate) fn submit_inner(self) -> Result<Submission> {
        let ctx = &self.ctx;
        let inner = &ctx.inner;
        let stride = self.params_stride();
        let params = ctx.parameter_buffer(&self.params_bytes(stride));

        let query = self.timestamps.then(|| {
            inner.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("wgpu-reduce timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            })
        });
        let timestamp_offset = self.read_bytes;
        let staging_bytes = self.read_bytes + if query.is_some() { 16 } else { 0 };
        // One array read, made in memory the CPU maps (mapped_results): map it, copy nothing.
        let direct = match self.reads.as_slice() {
            [r] if query.is_none()
                && r.sole
                && self.only_here(&r.src.storage)
                && !matches!(*r.src.storage, Storage::Wrapped { .. })
                && r.src
                    .buffer()
                    .usage()
                    .contains(wgpu::BufferUsages::MAP_READ) =>
            {
                Some(r.src.storage.clone())
            }
            _ => None,
        };
        let staging = if let Some(array) = direct {
            let bytes = array.buffer().size();
            inner.counters.mapped_reads.fetch_add(1, Ordering::Relaxed);
            Some((Staging::Array(array), bytes))
        } else if staging_bytes > 0 {
            let buf = ctx.lease(
                staging_bytes,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            )?;
            Some((Staging::Leased(buf), staging_bytes))
        } else {
            None
        };
        let mut encoder = inner
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("wgpu-reduce"),
            });
        let has_dispatches = !self.dispatches.is_empty();
        self.encode_dispatches(&mut encoder, &params, stride, query.as_ref());
        if let Some((Staging::Leased(staging), _)) = &staging {
            for r in &self.reads {
                let bytes = r.src.bytes().div_ceil(4) * 4;
                encoder.copy_buffer_to_buffer(
                    r.src.buffer(),
                    r.src.offset(),
                    staging.buffer(),
                    r.offset,
                    bytes,
                );
            }
        }
        let mut resolve = None;
        if let (Some(q), Some((Staging::Leased(staging), _)), true) =
            (&query, &staging, has_dispatches)
        {
            let buf = ctx.lease(
                16,
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            )?;
            encoder.resolve_query_set(q, 0..2, buf.buffer(), 0);
            encoder.copy_buffer_to_buffer(buf.buffer(), 0, staging.buffer(), timestamp_offset, 16);
            resolve = Some(buf);
        }
        let index = inner.queue.submit([encoder.finish()]);
        ctx.count_submission();
        // Temporaries (partials inside the dispatches, the resolve buffer) are dropped
        // here; the pool frees each once the GPU has finished the work submitted so far.
        drop((params, resolve));
        Ok(Submission {
            ctx: ctx.clone(),
            index,
            recording: self.id,
            staging,
            timestamp_offset: (query.is_some() && has_dispatches).then_some(timestamp_offset),
            checks: self.checks.clone(),
        })
    }
}
