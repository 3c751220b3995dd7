//! Buffers that dispatches write without sharing data through them (see
//! [`INDEPENDENT_SLOTS`]), made when a recording first needs them.

use std::sync::Mutex;

use crate::kernels::INDEPENDENT_SLOTS;

/// Up to [`INDEPENDENT_SLOTS`] buffers of one kind and size. Slot `j` is a buffer of its own
/// for `j` below that and buffer `j % INDEPENDENT_SLOTS` past it; each is made (zeroed, as wgpu
/// initialises every buffer) the first time a recording takes it, so a context holds as many
/// as its largest recording has used.
pub(crate) struct Slots {
    label: &'static str,
    size: u64,
    made: Mutex<Vec<wgpu::Buffer>>,
}

impl Slots {
    pub(crate) fn new(label: &'static str, size: u64) -> Slots {
        Slots {
            label,
            size,
            made: Mutex::default(),
        }
    }

    /// Slot `j`'s buffer.
    pub(crate) fn get(&self, device: &wgpu::Device, j: usize) -> wgpu::Buffer {
        let j = j % INDEPENDENT_SLOTS;
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        while made.len() <= j {
            made.push(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size: self.size,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            }));
        }
        made[j].clone()
    }
}
