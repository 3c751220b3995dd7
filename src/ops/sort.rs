//! Sorting and selecting: [`Sort`], the options of [`Recorder::sort`](crate::Recorder::sort),
//! [`Recorder::sort_pairs`](crate::Recorder::sort_pairs) and
//! [`Recorder::argsort`](crate::Recorder::argsort); [`TopK`], those of
//! [`Recorder::topk`](crate::Recorder::topk).
//!
//! The sort is a least-significant-digit radix sort, 8 bits a pass: four passes for 32-bit keys
//! (u32, i32, f32), two for 16-bit ones (f16, bf16, widened to a word each for the passes and
//! packed again after). Each pass counts the digits of every tile of 2,048 keys (one workgroup
//! each), scans the counts (an exclusive scan, as CUB's `DeviceRadixSort` does between its
//! passes) and scatters each tile's keys: it ranks equal digits in index order, puts the tile in
//! digit order in workgroup memory, and writes each digit's run to its place in order. No
//! workgroup ever waits on another, so it needs no forward-progress guarantee (safe on Metal and
//! on GPUs that run one workgroup at a time), and it is **stable**: equal keys keep their order,
//! so the result is the same on every run and argsort's indices of equal keys increase.
//!
//! The ranking takes subgroup ballots where the context uses subgroups and every subgroup the
//! adapter may run has 16 to 128 invocations (Apple GPUs, NVIDIA, AMD); elsewhere (and with
//! subgroups turned off) a bit mask per digit in workgroup memory. The count likewise adds a
//! subgroup's keys of one digit at once. Every kernel of the sort needs at most 13 KiB of
//! workgroup memory, within the 16 KiB every WebGPU device gives, so 8-bit digits fit every
//! adapter and no narrower variant is needed.
//!
//! Rows of at most 1,024 keys (and whole arrays that short) are sorted one workgroup each in
//! workgroup memory instead: a bitonic network over (key, index) pairs, which orders equal keys
//! by index, so the result is the same as the radix sort's. No workgroup waits on another there
//! either.
//!
//! Longer arrays of more than one dimension are sorted along their last axis, each row on its own
//! (`torch.sort(x, dim=-1)`). With at least 128 rows of at most 65,536 keys (within one binding),
//! each digit pass takes a workgroup per row: it counts its row's digits and scatters the row's
//! tiles in order, so no counts, scans or row passes are needed, and argsort's indices start as
//! the keys' places in their row. Fewer, or longer, rows take the passes over the whole array:
//! after the keys' passes come passes over the digits of each key's row, taken from its index,
//! which moves with it (a pass per 8 bits of the row count), so the rows come back together with
//! their keys in order; argsort's indices and the values of key-value pairs are then gathered by
//! those indices.
//!
//! Arrays beyond one storage binding are sorted in pieces of whole tiles: each piece of the
//! input counts its tiles' digits and scatters, into each piece of the output, the keys whose
//! places lie there. The digit counts of all tiles (1 KiB per 2,048 keys) must fit one binding,
//! and key-value pairs along rows must too (their values are gathered from the whole array);
//! beyond that a sort is [`Error::TooLarge`](crate::Error::TooLarge). Top-k and kthvalue bind
//! their input whole.
//!
//! Top-k and kthvalue select without sorting the array: a radix select takes, per 8-bit digit
//! from the most significant, a histogram of each row's keys that match the digits chosen so far
//! (workgroups add their tile's counts to the row's) and picks the digit that holds the row's
//! k-th key; after four such steps (two for 16-bit keys) the k-th key is known, and a count, an
//! exclusive scan and a compaction take the keys above it and the first of those equal to it in
//! index order (ties go to the lower index). Sorted results then sort the k keys of each row.
//! Rows of at most 1,024 keys, sorted (and kthvalue's), are sorted a workgroup each instead,
//! and the first k (or the k-th) written.
//! Like the sort, nothing waits on another workgroup.
//!
//! Order (NumPy's and PyTorch's, `torch.sort(stable=True)`): integers by value; floats in IEEE
//! total order with every NaN after +inf (first when descending, as in PyTorch); -0.0 sorts
//! before +0.0 (PyTorch treats them as equal and keeps their input order). Descending sorts
//! keep equal keys in their input order too.
//!
//! ```no_run
//! # fn main() -> wgpu_reduce::Result<()> {
//! use wgpu_reduce::{Context, Sort};
//! let ctx = Context::new()?;
//! let x = ctx.upload(&[3.0f32, -1.0, f32::NAN, 2.0, -1.0])?;
//! let (sorted, order) = ctx.run(|rec| {
//!     Ok((rec.sort(&x, &Sort::new())?, rec.argsort(&x, &Sort::new().descending(true))?))
//! })?;
//! assert_eq!(&sorted[..4], &[-1.0, -1.0, 2.0, 3.0]);
//! assert!(sorted[4].is_nan());
//! assert_eq!(order, vec![2, 0, 3, 1, 4]); // NaN first when descending; ties in input order
//! # Ok(()) }
//! ```

/// How to sort: ascending (the default) or descending. Every sort is stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Sort {
    /// Largest first (NaN first, as PyTorch's `descending=True`); equal keys stay in input
    /// order.
    pub descending: bool,
}

impl Sort {
    /// An ascending sort.
    pub fn new() -> Sort {
        Sort::default()
    }

    /// Largest first, or not.
    pub fn descending(mut self, descending: bool) -> Sort {
        self.descending = descending;
        self
    }
}

/// How [`Recorder::topk`](crate::Recorder::topk) takes a row's k keys: the largest (the
/// default) or the smallest, sorted (the default) or in index order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TopK {
    /// The largest keys (NaN counts as the largest, as in `torch.topk`), or the smallest.
    pub largest: bool,
    /// Sorted (largest first, or smallest first), or in the order of their indices.
    pub sorted: bool,
}

impl Default for TopK {
    fn default() -> TopK {
        TopK {
            largest: true,
            sorted: true,
        }
    }
}

impl TopK {
    /// The largest keys, sorted: `torch.topk`'s defaults.
    pub fn new() -> TopK {
        TopK::default()
    }

    /// The largest keys (`true`) or the smallest.
    pub fn largest(mut self, largest: bool) -> TopK {
        self.largest = largest;
        self
    }

    /// Sorted (`true`), or in the order of their indices.
    pub fn sorted(mut self, sorted: bool) -> TopK {
        self.sorted = sorted;
        self
    }
}
