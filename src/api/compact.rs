//! Selecting and counting: compaction ([`Recorder::compact`], [`Recorder::partition`],
//! [`Recorder::nonzero`]), runs and unique values ([`Recorder::run_lengths`],
//! [`Recorder::unique_values`] and its siblings), and histograms ([`Recorder::histogram`],
//! [`Recorder::bincount`]).
//!
//! A compaction's result is a [`Compacted`] array: its capacity is the input's length, and the
//! number kept stays on the GPU, so operations later in the same recording take it without a
//! host round trip; reading it returns the kept elements alone.

use crate::array::GpuArray;
use crate::element::{DType, Element};
use crate::error::{Error, Result};
use crate::ops::{Cmp, ReduceOp, Sort};
use crate::record::{Keep, Kept, ReadToken, Readback, Recorder, Results, SortValues};

/// An array whose length is known on the GPU: the result of a compaction.
///
/// [`values`](Self::values) holds [`capacity`](Self::capacity) rows of
/// [`width`](Self::width) elements (one, except for [`Recorder::nonzero`]'s coordinates), of which
/// the first [`count`](Self::count) are the result; the places past the count hold unspecified
/// values until [`Recorder::fill_rest`] sets them. Both arrays stay on the GPU: operations
/// later in the same recording can take them (the count, for instance, as a segment offset, or
/// the values filled past the count with a value that does not change a reduction).
///
/// Read back ([`Context::run`](crate::Context::run), or [`Readback`] in a recording), it
/// becomes a `Vec<T>` of the kept elements alone: the count and the values come back in one
/// read (the whole capacity is copied).
#[derive(Debug, Clone)]
pub struct Compacted<T: Element> {
    values: GpuArray<T>,
    count: GpuArray<u32>,
    width: usize,
}

impl<T: Element> Compacted<T> {
    /// The values: `capacity` rows (shape `[capacity]`, or `[capacity, width]` for nonzero's
    /// coordinates), the first `count` of them the result.
    pub fn values(&self) -> &GpuArray<T> {
        &self.values
    }

    /// The number of rows kept: one u32 (a 0-dimensional array), on the GPU.
    pub fn count(&self) -> &GpuArray<u32> {
        &self.count
    }

    /// The most rows the result can hold (the input's length).
    pub fn capacity(&self) -> usize {
        self.values.shape().first().copied().unwrap_or(0)
    }

    /// Elements per row: 1, or the dimensions of nonzero's input.
    pub fn width(&self) -> usize {
        self.width
    }
}

impl<T: Element> Readback for Compacted<T> {
    type Host = Vec<T>;
    type Tokens = (ReadToken<u32>, ReadToken<T>, usize);
    fn request(&self, rec: &mut Recorder) -> Result<Self::Tokens> {
        Ok((rec.read(&self.count)?, rec.read(&self.values)?, self.width))
    }
    fn collect((count, values, width): Self::Tokens, results: &Results) -> Result<Vec<T>> {
        let count = results.scalar(&count)? as usize;
        let mut values = results.get(&values)?;
        values.truncate(count * width);
        Ok(values)
    }
}

/// An element's bits in a u32 (16-bit elements in the low half).
fn element_bits<T: Element>(value: T) -> u32 {
    let bytes = bytemuck::bytes_of(&value);
    match bytes.len() {
        2 => u32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
        _ => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}

/// Whether `x` and `mask` have one shape, or [`Error::InputsDiffer`].
fn same_shape<T: Element>(op: &'static str, x: &GpuArray<T>, mask: &GpuArray<u32>) -> Result<()> {
    if x.shape() != mask.shape() {
        return Err(Error::InputsDiffer {
            op,
            a: x.shape().to_vec(),
            a_dtype: x.dtype(),
            b: mask.shape().to_vec(),
            b_dtype: mask.dtype(),
        });
    }
    Ok(())
}

impl Recorder {
    /// A [`Compacted`] of `capacity` rows of `width` elements and its count.
    fn lease_compacted<O: Element>(
        &mut self,
        capacity: usize,
        width: usize,
    ) -> Result<Compacted<O>> {
        let shape = if width == 1 {
            vec![capacity]
        } else {
            vec![capacity, width]
        };
        Ok(Compacted {
            values: self.lease_output::<O>(shape)?,
            count: self.lease_output::<u32>(vec![])?,
            width,
        })
    }

    /// Records the comparison of each element of `x` (any type) with `value`: a u32 mask of
    /// `x`'s shape, 1 where `x cmp value` holds and 0 elsewhere, for [`compact`](Self::compact)
    /// and [`partition`](Self::partition) (see [`Cmp`] for floats: NaN compares unequal to
    /// everything).
    pub fn compare<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        cmp: Cmp,
        value: T,
    ) -> Result<GpuArray<u32>> {
        let bits = element_bits(value);
        let as_f32 = match T::DTYPE {
            DType::F32 => f32::from_bits(bits),
            DType::F16 => half::f16::from_bits(bits as u16).to_f32(),
            DType::BF16 => half::bf16::from_bits(bits as u16).to_f32(),
            _ => 0.0,
        };
        let mask = self.lease_output::<u32>(x.shape().to_vec())?;
        self.record_compare(&x.raw(), cmp, bits, as_f32, &mask.raw())?;
        Ok(mask)
    }

    /// The elements of `x` that `keep` keeps, in order, and their count.
    fn compact_values<T: Element>(
        &mut self,
        x: &crate::array::RawArray,
        keep: Keep<'_>,
    ) -> Result<Compacted<T>> {
        let out = self.lease_compacted::<T>(x.len, 1)?;
        let (values, count) = (out.values.raw(), out.count.raw());
        let kept = Kept {
            values: Some(&values),
            count: Some(&count),
            ..Default::default()
        };
        self.record_compact(x, keep, kept)?;
        Ok(out)
    }

    /// Records a stable compaction: the elements of `x` (any type, in row-major order) whose
    /// word of `mask` (u32, of `x`'s shape) is not 0, in their order, as
    /// `torch.masked_select(x, mask)` and `x[mask]`. The number kept stays on the GPU (see
    /// [`Compacted`]). A mask of another shape is [`Error::InputsDiffer`].
    ///
    /// Two passes and a scan between them: a count of each tile's kept elements, a scan of
    /// the counts, and a scatter that ranks each tile's kept elements and writes them in order;
    /// no workgroup waits on another, and the result is the same on every run.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[1.5f32, -2.0, 0.0, 7.0, -1.0])?;
    /// let keep = ctx.upload(&[1u32, 0, 0, 1, 1])?;
    /// assert_eq!(ctx.run(|rec| rec.compact(&x, &keep))?, vec![1.5, 7.0, -1.0]);
    /// # Ok(()) }
    /// ```
    #[doc(alias = "masked_select")]
    pub fn compact<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        mask: &GpuArray<u32>,
    ) -> Result<Compacted<T>> {
        same_shape("compact", x, mask)?;
        let mask = mask.raw();
        self.compact_values(&x.raw(), Keep::Mask(&mask))
    }

    /// Records a stable partition: the elements of `x` (flattened) whose word of `mask` is not
    /// 0, in order, then the others, in order, and the number of the first (one u32). A mask
    /// of another shape is [`Error::InputsDiffer`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[5i32, 6, 7, 8, 9])?;
    /// let odd = ctx.upload(&[1u32, 0, 1, 0, 1])?;
    /// let (parts, count) = ctx.run(|rec| rec.partition(&x, &odd))?;
    /// assert_eq!((parts, count), (vec![5, 7, 9, 6, 8], vec![3]));
    /// # Ok(()) }
    /// ```
    pub fn partition<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        mask: &GpuArray<u32>,
    ) -> Result<(GpuArray<T>, GpuArray<u32>)> {
        same_shape("partition", x, mask)?;
        let parts = self.lease_output::<T>(vec![x.len()])?;
        let count = self.lease_output::<u32>(vec![])?;
        let (values, counted) = (parts.raw(), count.raw());
        let kept = Kept {
            values: Some(&values),
            rest: true,
            count: Some(&counted),
            ..Default::default()
        };
        let mask = mask.raw();
        self.record_compact(&x.raw(), Keep::Mask(&mask), kept)?;
        Ok((parts, count))
    }

    /// Records the flat (row-major) indices of the elements of `x` that are not zero, in
    /// increasing order, as `numpy.flatnonzero` (NaN is not zero; -0.0 is).
    pub fn flatnonzero<T: Element>(&mut self, x: &GpuArray<T>) -> Result<Compacted<u32>> {
        let out = self.lease_compacted::<u32>(x.len(), 1)?;
        let (indices, count) = (out.values.raw(), out.count.raw());
        let kept = Kept {
            indices: Some(&indices),
            count: Some(&count),
            ..Default::default()
        };
        self.record_compact(&x.raw(), Keep::Nonzero, kept)?;
        Ok(out)
    }

    /// Records the indices of the elements of `x` that are not zero, one row of coordinates
    /// (one per dimension of `x`) per element in row-major order, as `torch.nonzero(x)`
    /// (NaN is not zero; -0.0 is). Read back, it is `count * x.ndim()` u32.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload_shaped(&[0.0f32, 3.0, 0.0, 0.0, f32::NAN, 1.0], &[2, 3])?;
    /// assert_eq!(ctx.run(|rec| rec.nonzero(&x))?, vec![0, 1, 1, 1, 1, 2]);
    /// # Ok(()) }
    /// ```
    pub fn nonzero<T: Element>(&mut self, x: &GpuArray<T>) -> Result<Compacted<u32>> {
        if x.ndim() <= 1 {
            let flat = self.flatnonzero(x)?;
            return Ok(Compacted {
                width: x.ndim(),
                ..flat
            });
        }
        let n = x.len();
        let flat = self.lease_temporary(n, DType::U32)?;
        let out = self.lease_compacted::<u32>(n, x.ndim())?;
        let count = out.count.raw();
        let kept = Kept {
            indices: Some(&flat),
            count: Some(&count),
            ..Default::default()
        };
        self.record_compact(&x.raw(), Keep::Nonzero, kept)?;
        self.record_unravel(&flat, &count, n, x.shape(), &out.values.raw())?;
        Ok(out)
    }

    /// Records `value` into every place of `c`'s values past its count, and returns its values
    /// (the same array, now defined through its capacity): what a later operation over the
    /// whole capacity needs, e.g. 0 before a sum, or `-inf` before a max.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[4.0f32, -3.0, 2.5, -1.0])?;
    /// let keep = ctx.upload(&[1u32, 0, 1, 0])?;
    /// let total = ctx.run(|rec| {
    ///     let kept = rec.compact(&x, &keep)?;
    ///     let padded = rec.fill_rest(&kept, 0.0)?; // no host round trip
    ///     rec.sum(&padded, .., false)
    /// })?;
    /// assert_eq!(total, vec![6.5]);
    /// # Ok(()) }
    /// ```
    pub fn fill_rest<T: Element>(&mut self, c: &Compacted<T>, value: T) -> Result<GpuArray<T>> {
        let bits = element_bits(value);
        let values = c.values.raw();
        self.check_ctx(&values, "the compacted array")?;
        let elements = c.capacity() * c.width;
        self.record_fill_rest(&values, elements, c.width, &c.count.raw(), bits)?;
        Ok(c.values.clone())
    }

    /// Records the first element of each run of equal elements of `x` (flattened), as
    /// `torch.unique_consecutive(x)`: floats compare as values (-0.0 equals +0.0; NaN equals
    /// nothing, so each NaN is its own run), and a run's value is its first element.
    pub fn unique_consecutive<T: Element>(&mut self, x: &GpuArray<T>) -> Result<Compacted<T>> {
        self.compact_values(&x.raw(), Keep::Changes)
    }

    /// Records the run-length encoding of `x` (flattened): each run's first element and its
    /// length, as `torch.unique_consecutive(x, return_counts=True)` (runs as in
    /// [`unique_consecutive`](Self::unique_consecutive)).
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[7u32, 7, 7, 2, 2, 7, 9])?;
    /// let (values, lengths) = ctx.run(|rec| rec.run_lengths(&x))?;
    /// assert_eq!((values, lengths), (vec![7, 2, 7, 9], vec![3, 2, 1, 1]));
    /// # Ok(()) }
    /// ```
    pub fn run_lengths<T: Element>(
        &mut self,
        x: &GpuArray<T>,
    ) -> Result<(Compacted<T>, Compacted<u32>)> {
        let x = x.raw();
        self.record_runs(&x)
    }

    /// The runs of `x` (flattened) and their lengths.
    fn record_runs<T: Element>(
        &mut self,
        x: &crate::array::RawArray,
    ) -> Result<(Compacted<T>, Compacted<u32>)> {
        let (values, lengths, _) = self.record_runs_from(x)?;
        Ok((values, lengths))
    }

    /// [`record_runs`](Self::record_runs), and each run's first index in `x` (a temporary,
    /// valid up to the count).
    #[allow(clippy::type_complexity)]
    fn record_runs_from<T: Element>(
        &mut self,
        x: &crate::array::RawArray,
    ) -> Result<(Compacted<T>, Compacted<u32>, crate::array::RawArray)> {
        let n = x.len;
        let values = self.lease_compacted::<T>(n, 1)?;
        let starts = self.lease_temporary(n, DType::U32)?;
        let lengths = Compacted {
            values: self.lease_output::<u32>(vec![n])?,
            count: values.count.clone(),
            width: 1,
        };
        let count = values.count.raw();
        let kept_values = values.values.raw();
        let kept = Kept {
            values: Some(&kept_values),
            indices: Some(&starts),
            count: Some(&count),
            ..Default::default()
        };
        self.record_compact(x, Keep::Changes, kept)?;
        self.record_run_lengths(&starts, &count, n, &lengths.values.raw())?;
        Ok((values, lengths, starts))
    }

    /// A stable ascending sort of `x` flattened, into a temporary array (and, with `perm`, the
    /// indices that sort it).
    fn sorted_flat(
        &mut self,
        x: &crate::array::RawArray,
        perm: Option<&crate::array::RawArray>,
    ) -> Result<crate::array::RawArray> {
        let sorted = self.lease_temporary(x.len, x.dtype)?;
        let values = if perm.is_some() {
            SortValues::Indices
        } else {
            SortValues::None
        };
        self.record_sort(&Sort::new(), x, x.len, values, &sorted, perm)?;
        Ok(sorted)
    }

    /// Records the distinct values of `x` (flattened), in ascending order, as
    /// `torch.unique(x, sorted=True)` (the Array API's `unique_values`): a stable sort, then the
    /// first of each run. Floats compare as values: -0.0 and +0.0 are one value (written as
    /// the first of its run in sorted order: -0.0 where both occur), and each NaN is distinct
    /// (as in PyTorch and the Array API), after every number.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[3i32, -1, 3, 8, -1, 3])?;
    /// assert_eq!(ctx.run(|rec| rec.unique_values(&x))?, vec![-1, 3, 8]);
    /// # Ok(()) }
    /// ```
    pub fn unique_values<T: Element>(&mut self, x: &GpuArray<T>) -> Result<Compacted<T>> {
        let sorted = self.sorted_flat(&x.raw(), None)?;
        self.compact_values(&sorted, Keep::Changes)
    }

    /// Records the distinct values of `x` (flattened) in ascending order and how many times
    /// each occurs, as `torch.unique(x, return_counts=True)` (the Array API's `unique_counts`;
    /// values as in [`unique_values`](Self::unique_values)).
    pub fn unique_counts<T: Element>(
        &mut self,
        x: &GpuArray<T>,
    ) -> Result<(Compacted<T>, Compacted<u32>)> {
        let sorted = self.sorted_flat(&x.raw(), None)?;
        self.record_runs(&sorted)
    }

    /// Records the distinct values of `x` (flattened) in ascending order and, for each element
    /// of `x`, the index of its value among them (of `x`'s shape), as
    /// `torch.unique(x, return_inverse=True)` (the Array API's `unique_inverse`; values as in
    /// [`unique_values`](Self::unique_values)).
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[30u32, 10, 30, 20])?;
    /// let (values, inverse) = ctx.run(|rec| rec.unique_inverse(&x))?;
    /// assert_eq!((values, inverse), (vec![10, 20, 30], vec![2, 0, 2, 1]));
    /// # Ok(()) }
    /// ```
    pub fn unique_inverse<T: Element>(
        &mut self,
        x: &GpuArray<T>,
    ) -> Result<(Compacted<T>, GpuArray<u32>)> {
        let perm = self.lease_temporary(x.len(), DType::U32)?;
        let sorted = self.sorted_flat(&x.raw(), Some(&perm))?;
        let out = self.lease_compacted::<T>(x.len(), 1)?;
        let inverse = self.lease_output::<u32>(x.shape().to_vec())?;
        let (values, count, inverse_raw) = (out.values.raw(), out.count.raw(), inverse.raw());
        let kept = Kept {
            values: Some(&values),
            inverse: Some((&inverse_raw, Some(&perm))),
            count: Some(&count),
            ..Default::default()
        };
        self.record_compact(&sorted, Keep::Changes, kept)?;
        Ok((out, inverse))
    }

    /// Records, from one sort, everything the Array API's `unique_all` gives: the distinct
    /// values of `x` (flattened) in ascending order, the index in `x` of each one's first
    /// occurrence, for each element of `x` the index of its value among them (of `x`'s shape),
    /// and how many times each occurs (values as in [`unique_values`](Self::unique_values)).
    /// PyTorch's `torch.unique(x, return_inverse=True, return_counts=True)` gives the same
    /// values, inverse and counts. The three compacted results share one count.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[30u32, 10, 30, 20])?;
    /// let (values, first, inverse, counts) = ctx.run(|rec| rec.unique_all(&x))?;
    /// assert_eq!(values, vec![10, 20, 30]);
    /// assert_eq!(first, vec![1, 3, 0]);
    /// assert_eq!(inverse, vec![2, 0, 2, 1]);
    /// assert_eq!(counts, vec![1, 1, 2]);
    /// # Ok(()) }
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn unique_all<T: Element>(
        &mut self,
        x: &GpuArray<T>,
    ) -> Result<(Compacted<T>, Compacted<u32>, GpuArray<u32>, Compacted<u32>)> {
        let n = x.len();
        let perm = self.lease_temporary(n, DType::U32)?;
        let sorted = self.sorted_flat(&x.raw(), Some(&perm))?;
        let (values, counts, starts) = self.record_runs_from::<T>(&sorted)?;
        // A run's first element in sorted order is its first occurrence: the sort is stable.
        let first = Compacted {
            values: self.lease_output::<u32>(vec![n])?,
            count: values.count.clone(),
            width: 1,
        };
        self.record_gather(&perm, &starts, &first.values.raw(), n)?;
        let inverse = self.lease_output::<u32>(x.shape().to_vec())?;
        let inverse_raw = inverse.raw();
        let kept = Kept {
            inverse: Some((&inverse_raw, Some(&perm))),
            ..Default::default()
        };
        self.record_compact(&sorted, Keep::Changes, kept)?;
        Ok((values, first, inverse, counts))
    }
}

/// Rows and their length along the last axis (a 0-dimensional array is one row of one).
fn rows_of(shape: &[usize]) -> (Vec<usize>, usize) {
    match shape.split_last() {
        Some((&len, rows)) => (rows.to_vec(), len),
        None => (vec![], 1),
    }
}

/// Integer elements ([`Error::UnsupportedInput`] otherwise) and a `length` of at least 1
/// ([`Error::InvalidParameter`] otherwise), for bincount.
fn check_bincount<T: Element>(length: usize) -> Result<()> {
    if !matches!(T::DTYPE, DType::U32 | DType::I32) {
        return Err(Error::UnsupportedInput {
            op: "bincount",
            input: T::DTYPE,
            allowed: "u32, i32 (histogram counts floats)".into(),
        });
    }
    check_bins("length", length, "1 <= length < 2^31")
}

/// `bins` of at least 1, or [`Error::InvalidParameter`].
fn check_bins(name: &'static str, bins: usize, allowed: &'static str) -> Result<()> {
    if bins == 0 || bins > u32::MAX as usize / 2 {
        return Err(Error::InvalidParameter {
            name,
            value: bins.to_string(),
            allowed,
        });
    }
    Ok(())
}

impl Recorder {
    /// Records the histogram of the elements of `x` (f32, f16 or bf16; all of them, flattened)
    /// in `bins` bins of equal width over `[lo, hi]`, as `torch.histc(x, bins, lo, hi)`:
    /// u32 counts, exact and the same on every run. Elements outside the range, and NaN, are
    /// not counted; the last bin is closed (it counts `hi`). Element x goes to bin
    /// `floor((x - lo) * (bins / (hi - lo)))`, the factor computed once in f32, so that a value
    /// within a rounding of a bin's edge may fall in the bin next to the one `torch.histc`
    /// (which divides for each element) picks. `torch.histc` with `min == max` takes the
    /// range from the data; here `lo < hi` (both finite) is required:
    /// [`Error::InvalidParameter`] otherwise, and for `bins` of 0. Integer arrays are
    /// [`Error::UnsupportedInput`] ([`bincount`](Self::bincount) counts integers).
    ///
    /// On GPUs that flush subnormal floats to zero, a subnormal element counts as zero.
    ///
    /// Up to 2,048 bins are counted in workgroup memory and added to the counts once per
    /// workgroup; more (e.g. 65,536) go straight to the counts with atomic adds.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[0.0f32, 0.5, 1.0, 2.9, 3.0, 3.5, f32::NAN, -0.1])?;
    /// assert_eq!(ctx.run(|rec| rec.histogram(&x, 3, 0.0, 3.0))?, vec![2, 1, 2]);
    /// # Ok(()) }
    /// ```
    pub fn histogram<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        bins: usize,
        lo: f32,
        hi: f32,
    ) -> Result<GpuArray<u32>> {
        let flat = x.reshape(&[x.len()])?;
        let out = self.histogram_rows(&flat, bins, lo, hi)?;
        out.reshape(&[bins])
    }

    /// Records the histogram of each row of `x` along its last axis (as
    /// [`histogram`](Self::histogram) does for the whole array): counts of shape
    /// `[..rows, bins]`.
    pub fn histogram_rows<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        bins: usize,
        lo: f32,
        hi: f32,
    ) -> Result<GpuArray<u32>> {
        if !T::DTYPE.is_float() {
            return Err(Error::UnsupportedInput {
                op: "histogram",
                input: T::DTYPE,
                allowed: "f32, f16, bf16 (bincount counts integers)".into(),
            });
        }
        check_bins("bins", bins, "1 <= bins < 2^31")?;
        let finite = lo.is_finite() && hi.is_finite() && (hi - lo).is_finite();
        if !(finite && lo < hi) {
            return Err(Error::InvalidParameter {
                name: "range",
                value: format!("[{lo}, {hi}]"),
                allowed: "lo < hi, both finite",
            });
        }
        let (mut shape, len) = rows_of(x.shape());
        shape.push(bins);
        let out = self.lease_output::<u32>(shape)?;
        self.record_histogram(&x.raw(), len, bins, Some((lo, hi)), &out.raw())?;
        Ok(out)
    }

    /// Records how many times each value `0..length` occurs in `x` (u32 or i32, all of it,
    /// flattened), as `torch.bincount(x, minlength=length)` where every value is below
    /// `length`: u32 counts, exact and the same on every run. The length is the caller's (the
    /// GPU does not send the largest value to the host first), so an element outside
    /// `0..length` (negative, or `length` and above) is an error: the recording's
    /// [`wait`](crate::Submission::wait) returns [`Error::InvalidValue`] with the lowest index of
    /// one. `length` of 0 is [`Error::InvalidParameter`]; float arrays are
    /// [`Error::UnsupportedInput`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[1u32, 3, 1, 0, 1])?;
    /// assert_eq!(ctx.run(|rec| rec.bincount(&x, 5))?, vec![1, 3, 0, 1, 0]);
    /// # Ok(()) }
    /// ```
    pub fn bincount<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        length: usize,
    ) -> Result<GpuArray<u32>> {
        let flat = x.reshape(&[x.len()])?;
        let out = self.bincount_rows(&flat, length)?;
        out.reshape(&[length])
    }

    /// Records the counts of the values `0..length` in each row of `x` along its last axis (as
    /// [`bincount`](Self::bincount) does for the whole array): counts of shape
    /// `[..rows, length]`.
    pub fn bincount_rows<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        length: usize,
    ) -> Result<GpuArray<u32>> {
        check_bincount::<T>(length)?;
        let (mut shape, len) = rows_of(x.shape());
        shape.push(length);
        let out = self.lease_output::<u32>(shape)?;
        self.record_histogram(&x.raw(), len, length, None, &out.raw())?;
        Ok(out)
    }

    /// Records the sum of `weights` (f32, of `x`'s shape) for each value `0..length` of `x`
    /// (u32 or i32, all of it, flattened), as `torch.bincount(x, weights, minlength=length)`
    /// where every value is below `length`: f32 sums, the same on every run. Each value's
    /// weights are added in the order of their indices: a stable sort of `x` with the weights,
    /// [`bincount`](Self::bincount)'s counts scanned into segment offsets, and a segmented sum
    /// (so it costs a sort, where the counts alone do not). Values outside `0..length` are
    /// [`Error::InvalidValue`] as for `bincount`; weights of another shape are
    /// [`Error::InputsDiffer`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[2i32, 0, 2, 3])?;
    /// let w = ctx.upload(&[0.5f32, 1.0, 2.0, -1.0])?;
    /// assert_eq!(ctx.run(|rec| rec.bincount_weighted(&x, &w, 4))?, vec![1.0, 0.0, 2.5, -1.0]);
    /// # Ok(()) }
    /// ```
    pub fn bincount_weighted<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        weights: &GpuArray<f32>,
        length: usize,
    ) -> Result<GpuArray<f32>> {
        self.weighted_bincount(x, weights, length, false)
    }

    /// Records [`bincount_weighted`](Self::bincount_weighted) of each row of `x` along its last
    /// axis (as [`bincount_rows`](Self::bincount_rows) is of `bincount`): of shape `x.shape()`
    /// with the last dimension replaced by `length`, each row's sums in the order of their
    /// indices. The rows are sorted each on its own, so `x` (and the weights) must fit one
    /// storage binding where rows are longer than 1,024 and fewer than 128
    /// ([`Error::TooLarge`] otherwise).
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload_shaped(&[1u32, 1, 0, 2, 2, 2], &[2, 3])?;
    /// let w = ctx.upload_shaped(&[0.5f32, 0.25, 1.0, 1.0, 2.0, 4.0], &[2, 3])?;
    /// let sums = ctx.run(|rec| rec.bincount_weighted_rows(&x, &w, 3))?;
    /// assert_eq!(sums, vec![1.0, 0.75, 0.0, 0.0, 0.0, 7.0]);
    /// # Ok(()) }
    /// ```
    pub fn bincount_weighted_rows<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        weights: &GpuArray<f32>,
        length: usize,
    ) -> Result<GpuArray<f32>> {
        self.weighted_bincount(x, weights, length, true)
    }

    /// The weighted bincount of `x` whole, or of each of its rows (`rows`).
    fn weighted_bincount<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        weights: &GpuArray<f32>,
        length: usize,
        rows: bool,
    ) -> Result<GpuArray<f32>> {
        check_bincount::<T>(length)?;
        if x.shape() != weights.shape() {
            return Err(Error::InputsDiffer {
                op: if rows {
                    "bincount_weighted_rows"
                } else {
                    "bincount_weighted"
                },
                a: x.shape().to_vec(),
                a_dtype: x.dtype(),
                b: weights.shape().to_vec(),
                b_dtype: weights.dtype(),
            });
        }
        let n = x.len();
        let (mut shape, len) = if rows {
            rows_of(x.shape())
        } else {
            (vec![], n)
        };
        shape.push(length);
        let bins = shape.iter().product::<usize>();
        let (x, w) = (x.raw(), weights.raw());
        let out = self.lease_output::<f32>(shape)?;
        if n == 0 || len == 0 {
            self.record_fill(&x, &out.raw(), bins, 0)?;
            return Ok(out);
        }
        // Each row's counts (one more in all than the values: the last stays 0), scanned
        // into the offsets of each (row, value)'s weights in the sorted order.
        let counts = self.lease_temporary(bins + 1, DType::U32)?;
        self.record_histogram(&x, len, length, None, &counts)?;
        let offsets = self.lease_temporary(bins + 1, DType::U32)?;
        let scan = crate::ops::Scan::new(crate::ops::ScanOp::Add).exclusive(true);
        self.record_scan(&scan, &counts, &[bins + 1], &offsets)?;
        let keys = self.lease_temporary(n, x.dtype)?;
        let sorted = self.lease_temporary(n, DType::F32)?;
        let sort = Sort::new();
        self.record_sort(&sort, &x, len, SortValues::Array(&w), &keys, Some(&sorted))?;
        self.record_segments(ReduceOp::Sum, &sorted, &offsets, None, &out.raw())?;
        Ok(out)
    }
}
