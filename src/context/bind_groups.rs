//! Bind groups kept for reuse: a call repeated on the same arrays (a one-liner in a loop, say)
//! binds the same buffer ranges each time, and making a bind group costs about 2 µs of the
//! host's time (H200 machine: `create_bind_group` 1.9 µs, two or three per small reduction).

use std::any::Any;
use std::collections::HashMap;
use std::sync::Weak;

/// An array's storage, as the cache watches it (without naming the array layer's type).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Watched = Weak<dyn Any + Send + Sync>;
/// An array's storage, as the cache watches it (wgpu's web types are neither `Send` nor `Sync`).
#[cfg(target_arch = "wasm32")]
pub(crate) type Watched = Weak<dyn Any>;

/// Most bind groups kept; past it the cache starts afresh. Room for a recording of a few
/// hundred dispatches repeated (its results taking the pool's buffers in one order or another):
/// with 64, every dispatch of a recording of more than 64 made its bind group again each time.
const CAPACITY: usize = 1024;

/// Every this many bind groups made, the entries of dropped arrays are let go (a sweep of the
/// whole cache at each would cost more than making the bind group once it is large).
const SWEEP_EVERY: usize = 16;

/// One binding: a buffer (by wgpu's identity), the offset and size bound (size 0: whole).
pub(crate) type Binding = (wgpu::Buffer, u64, u64);

/// What decides a bind group: its six bindings (layout and everything else are the
/// context's own).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Key(pub [Binding; 6]);

struct Entry {
    group: wgpu::BindGroup,
    /// The caller's arrays whose buffers are bound: the entry is good only while each is
    /// alive, and a dropped array's buffer is kept for at most [`SWEEP_EVERY`] further
    /// insertions (the pool's own buffers need no watch: the pool holds them, and
    /// `Context::trim_pool` clears the cache).
    arrays: Vec<Watched>,
}

impl Entry {
    fn alive(&self) -> bool {
        self.arrays.iter().all(|w| w.strong_count() > 0)
    }
}

#[derive(Default)]
pub(crate) struct BindGroups {
    map: HashMap<Key, Entry>,
    /// Bind groups made since the last sweep.
    made: usize,
}

impl BindGroups {
    /// The bind group of `key`, made by `make` if none is kept; `arrays` are the storages of
    /// the caller's arrays bound.
    pub(crate) fn get_or_make(
        &mut self,
        key: Key,
        arrays: Vec<Watched>,
        make: impl FnOnce() -> wgpu::BindGroup,
    ) -> wgpu::BindGroup {
        if let Some(e) = self.map.get(&key) {
            if e.alive() {
                return e.group.clone();
            }
        }
        let group = make();
        self.made += 1;
        if self.made >= SWEEP_EVERY || self.map.len() >= CAPACITY {
            self.made = 0;
            self.map.retain(|_, e| e.alive());
        }
        if self.map.len() >= CAPACITY {
            self.map.clear();
        }
        self.map.insert(
            key,
            Entry {
                group: group.clone(),
                arrays,
            },
        );
        group
    }

    /// Drops every kept bind group (and so the buffers only they still hold).
    pub(crate) fn clear(&mut self) {
        self.map.clear();
    }
}
