//! Typed arrays in GPU memory.

use std::marker::PhantomData;
use std::sync::Arc;

use crate::context::Context;
use crate::element::{DType, Element};
use crate::error::{Error, Result};
use crate::pool::PooledBuffer;

/// Where an array's bytes live.
#[derive(Debug)]
pub(crate) enum Storage {
    /// A buffer the library created for this array (uploads).
    Owned(wgpu::Buffer),
    /// A buffer leased from the pool (results); it returns to the pool when the last array
    /// viewing it is dropped.
    Pooled(PooledBuffer),
    /// A range of a buffer the caller created and handed over with
    /// [`GpuArray::from_buffer_range`]: `offset..offset + size`.
    Wrapped {
        buffer: wgpu::Buffer,
        offset: u64,
        size: u64,
    },
    /// One of the context's own buffers (it lives as long as the context): the clean states.
    Context(wgpu::Buffer),
}

impl Storage {
    pub(crate) fn buffer(&self) -> &wgpu::Buffer {
        match self {
            Storage::Owned(b) | Storage::Wrapped { buffer: b, .. } | Storage::Context(b) => b,
            Storage::Pooled(p) => p.buffer(),
        }
    }

    /// Where the array starts in its buffer, in bytes.
    pub(crate) fn offset(&self) -> u64 {
        match self {
            Storage::Wrapped { offset, .. } => *offset,
            _ => 0,
        }
    }

    /// The bytes from `offset` on that belong to the array (kernels may read padding up to
    /// this, and never write past its elements' last 32-bit word).
    pub(crate) fn capacity(&self) -> u64 {
        match self {
            Storage::Wrapped { size, .. } => *size,
            _ => self.buffer().size(),
        }
    }
}

/// A contiguous, row-major array of `T` in GPU memory, with a shape.
///
/// Made by [`Context::upload`], by wrapping a caller's buffer ([`GpuArray::from_buffer`]), or as
/// the result of a reduction (a 0-dimensional array that stays on the GPU until read). Cloning is
/// cheap and shares the buffer.
#[derive(Debug)]
pub struct GpuArray<T: Element> {
    pub(crate) storage: Arc<Storage>,
    shape: Vec<usize>,
    len: usize,
    pub(crate) ctx_id: u64,
    _t: PhantomData<T>,
}

impl<T: Element> Clone for GpuArray<T> {
    fn clone(&self) -> Self {
        GpuArray {
            storage: Arc::clone(&self.storage),
            shape: self.shape.clone(),
            len: self.len,
            ctx_id: self.ctx_id,
            _t: PhantomData,
        }
    }
}

/// An untyped view of an array, as the recorder needs it.
#[derive(Debug, Clone)]
pub(crate) struct RawArray {
    pub storage: Arc<Storage>,
    pub len: usize,
    pub dtype: DType,
    pub ctx_id: u64,
}

impl RawArray {
    pub(crate) fn buffer(&self) -> &wgpu::Buffer {
        self.storage.buffer()
    }
    /// Where the array starts in its buffer, in bytes.
    pub(crate) fn offset(&self) -> u64 {
        self.storage.offset()
    }
    /// The bytes of the buffer from [`offset`](Self::offset) on that belong to the array.
    pub(crate) fn capacity(&self) -> u64 {
        self.storage.capacity()
    }
    pub(crate) fn bytes(&self) -> u64 {
        (self.len * self.dtype.size_bytes()) as u64
    }
}

fn shape_len(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

pub(crate) fn check_shape(shape: &[usize], len: usize) -> Result<()> {
    match shape_len(shape) {
        Some(n) if n == len => Ok(()),
        n => Err(Error::ShapeMismatch {
            shape: shape.to_vec(),
            shape_len: n.unwrap_or(usize::MAX),
            len,
        }),
    }
}

/// Bytes of the buffer backing `len` elements of `dtype`: rounded up to 16 (one vec4 word),
/// and at least 16, so the kernels' vec4 view never needs a special case.
pub(crate) fn padded_bytes(len: usize, dtype: DType) -> u64 {
    ((len * dtype.size_bytes()) as u64).div_ceil(16).max(1) * 16
}

impl<T: Element> GpuArray<T> {
    pub(crate) fn from_storage(storage: Storage, shape: Vec<usize>, ctx_id: u64) -> Self {
        let len = shape.iter().product();
        GpuArray {
            storage: Arc::new(storage),
            shape,
            len,
            ctx_id,
            _t: PhantomData,
        }
    }

    /// Wraps a buffer the caller already has, without copying: the whole buffer, from offset
    /// 0 ([`from_buffer_range`](Self::from_buffer_range) with `0..buffer.size()`).
    pub fn from_buffer(ctx: &Context, buffer: wgpu::Buffer, shape: &[usize]) -> Result<Self> {
        let size = buffer.size();
        Self::from_buffer_range(ctx, buffer, 0..size, shape)
    }

    /// Wraps the bytes `range` of a buffer the caller already has, without copying (as
    /// `buffer.slice(range)` names them). The buffer must come from `ctx`'s device and have
    /// `STORAGE` usage (and `COPY_SRC` to be read back); the range must hold at least
    /// `product(shape)` elements of `T`, lie within the buffer, start at a multiple of the
    /// device's `min_storage_buffer_offset_alignment` (256 bytes on most devices) and be a
    /// non-zero multiple of 4 bytes long: kernels bind and read whole 32-bit words (16-bit
    /// elements two to a word), and write none past the range. A misaligned start or length is
    /// [`Error::Misaligned`]; the rest, [`Error::InvalidBuffer`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{wgpu, Context, GpuArray};
    /// let ctx = Context::new()?;
    /// // One buffer of the application's: a header of 256 bytes, then 1024 f32 values.
    /// let buffer = ctx.device().create_buffer(&wgpu::BufferDescriptor {
    ///     label: Some("app data"),
    ///     size: 256 + 4096,
    ///     usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC
    ///         | wgpu::BufferUsages::COPY_DST,
    ///     mapped_at_creation: false,
    /// });
    /// ctx.queue().write_buffer(&buffer, 256, bytemuck::cast_slice(&[1.0f32; 1024]));
    /// let x = GpuArray::<f32>::from_buffer_range(&ctx, buffer, 256..256 + 4096, &[1024])?;
    /// assert_eq!(ctx.run(|rec| rec.sum(&x, .., false))?, vec![1024.0]);
    /// # Ok(()) }
    /// ```
    pub fn from_buffer_range(
        ctx: &Context,
        buffer: wgpu::Buffer,
        range: std::ops::Range<u64>,
        shape: &[usize],
    ) -> Result<Self> {
        let len = shape_len(shape).ok_or_else(|| Error::ShapeMismatch {
            shape: shape.to_vec(),
            shape_len: usize::MAX,
            len: usize::MAX,
        })?;
        if !buffer.usage().contains(wgpu::BufferUsages::STORAGE) {
            return Err(Error::InvalidBuffer {
                reason: format!(
                    "the buffer's usage is {:?}; GpuArray::from_buffer needs STORAGE (and COPY_SRC to read it back)",
                    buffer.usage()
                ),
            });
        }
        if range.start > range.end || range.end > buffer.size() {
            return Err(Error::InvalidBuffer {
                reason: format!(
                    "the range {range:?} is not within the buffer's {} bytes",
                    buffer.size()
                ),
            });
        }
        let alignment = u64::from(
            ctx.capabilities()
                .limits
                .min_storage_buffer_offset_alignment,
        );
        if !range.start.is_multiple_of(alignment) {
            return Err(Error::Misaligned {
                what: "the range's start",
                value: range.start,
                alignment,
                rule:
                    "the device's min_storage_buffer_offset_alignment: storage bindings start there",
            });
        }
        let size = range.end - range.start;
        if size == 0 || !size.is_multiple_of(4) {
            return Err(Error::Misaligned {
                what: "the range's length",
                value: size,
                alignment: 4,
                rule: if size == 0 {
                    "an array's range must not be empty: kernels bind at least one 32-bit word"
                } else {
                    "kernels read and write whole 32-bit words; round the length up to a word"
                },
            });
        }
        let needed = (len as u64) * T::DTYPE.size_bytes() as u64;
        if size < needed {
            return Err(Error::InvalidBuffer {
                reason: format!(
                    "the range holds {size} bytes, but shape {shape:?} of {} needs {needed} bytes                      (at least {} bytes, a whole number of 32-bit words)",
                    T::DTYPE,
                    padded_wrap_bytes(len, T::DTYPE),
                ),
            });
        }
        ctx.check_array_size(len, T::DTYPE)?;
        ctx.check_own_buffer(&buffer)?;
        Ok(Self::from_storage(
            Storage::Wrapped {
                buffer,
                offset: range.start,
                size,
            },
            shape.to_vec(),
            ctx.id(),
        ))
    }

    /// The shape (empty for a 0-dimensional result).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        T::DTYPE
    }

    /// The underlying buffer: the elements are its `len() * size_of::<T>()` bytes from
    /// [`offset`](Self::offset) on (it may be larger).
    pub fn buffer(&self) -> &wgpu::Buffer {
        self.storage.buffer()
    }

    /// Where the elements start in [`buffer`](Self::buffer), in bytes (0 except for an array
    /// made by [`from_buffer_range`](Self::from_buffer_range)).
    pub fn offset(&self) -> u64 {
        self.storage.offset()
    }

    /// The same elements with another shape of the same length (no copy).
    pub fn reshape(&self, shape: &[usize]) -> Result<Self> {
        check_shape(shape, self.len)?;
        let mut a = self.clone();
        a.shape = shape.to_vec();
        Ok(a)
    }

    pub(crate) fn raw(&self) -> RawArray {
        RawArray {
            storage: Arc::clone(&self.storage),
            len: self.len,
            dtype: T::DTYPE,
            ctx_id: self.ctx_id,
        }
    }
}

/// The smallest buffer `GpuArray::from_buffer` takes for `len` elements of `dtype`: their bytes
/// rounded up to a whole, non-zero number of 32-bit words.
fn padded_wrap_bytes(len: usize, dtype: DType) -> u64 {
    ((len as u64 * dtype.size_bytes() as u64).div_ceil(4) * 4).max(4)
}

/// Usage of the buffers of arrays the library makes.
pub(crate) const ARRAY_USAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_SRC)
    .union(wgpu::BufferUsages::COPY_DST);

impl Context {
    /// Fails with [`Error::TooLarge`] if `len` elements of `dtype` exceed what one buffer of this
    /// device can hold, or what a kernel can index (2^32 - 1 elements). Arrays larger than one
    /// storage binding are fine: reductions cut them into pieces.
    pub(crate) fn check_array_size(&self, len: usize, dtype: DType) -> Result<()> {
        let limits = &self.inner.caps.limits;
        let bytes = padded_bytes(len, dtype);
        if bytes > limits.max_buffer_size {
            return Err(Error::TooLarge {
                what: format!("an array of {len} {dtype} elements"),
                bytes,
                limit: limits.max_buffer_size,
                limit_name: "max_buffer_size",
            });
        }
        if len > u32::MAX as usize {
            return Err(Error::TooLarge {
                what: format!("an array of {len} {dtype} elements"),
                bytes,
                limit: u64::from(u32::MAX) * dtype.size_bytes() as u64,
                limit_name: "2^32 - 1 elements per array",
            });
        }
        Ok(())
    }

    /// Fails with [`Error::InvalidBuffer`] unless `buffer` belongs to this context's device (of
    /// the same wgpu instance: wgpu cannot tell buffers of different instances apart): a binding
    /// of its first words must validate, so the buffer must be at least 4 bytes long (as
    /// `from_buffer` checks first).
    fn check_own_buffer(&self, buffer: &wgpu::Buffer) -> Result<()> {
        let Some(size) = wgpu::BufferSize::new(buffer.size().min(16) / 4 * 4) else {
            return Err(Error::InvalidBuffer {
                reason: format!("a buffer of {} bytes cannot be bound", buffer.size()),
            });
        };
        let probe = self.scoped("checking a wrapped buffer", || {
            let _ = self
                .inner
                .device
                .create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("wgpu-reduce buffer check"),
                    layout: &self.inner.probe_layout,
                    entries: &[wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer,
                            offset: 0,
                            size: Some(size),
                        }),
                    }],
                });
            Ok(())
        });
        probe.map_err(|e| Error::InvalidBuffer {
            reason: format!(
                "wgpu rejects the buffer on this context's device (a buffer of another device, \
                 or a destroyed one?): {e}"
            ),
        })
    }

    /// Fails with [`Error::TooLarge`] if `len` elements of `dtype` exceed one storage binding
    /// (`what` names the operation that binds the whole array at once).
    pub(crate) fn check_binding_size(&self, len: usize, dtype: DType, what: &str) -> Result<()> {
        let bytes = padded_bytes(len, dtype);
        let binding = self.inner.caps.limits.max_storage_buffer_binding_size;
        if bytes > binding {
            return Err(Error::TooLarge {
                what: format!("{what} over an array of {len} {dtype} elements"),
                bytes,
                limit: binding,
                limit_name: "max_storage_buffer_binding_size",
            });
        }
        Ok(())
    }
}
