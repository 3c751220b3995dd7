//! Recording compaction, runs and histograms.
//!
//! A compaction is two passes with a scan between them, like a radix sort's digit: a count of
//! each tile's kept elements, an inclusive scan of the counts, and a scatter that ranks each
//! tile's kept elements with a scan across the workgroup and writes them at their places, in
//! order. No workgroup waits on another. The number kept stays on the GPU (one word, written
//! from the scan's last count); kernels that follow read it there.
//!
//! A histogram is one pass over rows (a few workgroups per row, counting in workgroup memory
//! where the bins fit and adding their counts to the row's with integer atomics).

use crate::array::RawArray;
use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::params::{CompactParams, SortParams};
use crate::kernels::{
    CompactVariant, Kernel, SortVariant, COMPACT_TILE, HISTOGRAM_PRIVATE_BINS, HISTOGRAM_TILE,
};
use crate::ops::{Cmp, Scan, ScanOp};
use crate::record::{Check, Recorder};

/// Which elements a compaction keeps.
#[derive(Clone, Copy)]
pub(crate) enum Keep<'a> {
    /// Those whose word of the mask (u32, one per element) is not 0.
    Mask(&'a RawArray),
    /// Those that are not zero (NaN is not zero).
    Nonzero,
    /// The first, and each that differs from the one before it (the first of each run).
    Changes,
}

/// What a compaction writes.
#[derive(Default)]
pub(crate) struct Kept<'a> {
    /// The kept elements, at places 0.. (with `rest`, every element: the kept first).
    pub values: Option<&'a RawArray>,
    /// The kept elements' indices (not with `inverse`).
    pub indices: Option<&'a RawArray>,
    /// The elements not kept follow the kept ones in `values`, in order.
    pub rest: bool,
    /// Each element's run index (the place of the last kept element at or before it), at the
    /// element's index or, with a permutation, at the index it names.
    pub inverse: Option<(&'a RawArray, Option<&'a RawArray>)>,
    /// The number kept (one u32).
    pub count: Option<&'a RawArray>,
}

/// Workgroups a histogram aims for in all (rows share them; each row gets at least one).
const HISTOGRAM_WORKGROUPS: usize = 1024;

/// The element type's bits of the compaction parameters.
fn elem_flags(dtype: DType) -> u32 {
    match dtype {
        DType::F32 => CompactParams::COMPACT_F32,
        DType::I32 => CompactParams::COMPACT_I32,
        DType::F16 => CompactParams::COMPACT_HALF,
        DType::BF16 => CompactParams::COMPACT_HALF | CompactParams::COMPACT_BF16,
        _ => 0,
    }
}

/// `bytes` of `what` in one binding, or [`Error::TooLarge`].
fn one_binding(rec: &Recorder, what: &str, bytes: u64) -> Result<()> {
    let limit = rec.binding_limit();
    if bytes > limit {
        return Err(Error::TooLarge {
            what: format!("{what} (bound whole)"),
            bytes,
            limit,
            limit_name: "max_storage_buffer_binding_size",
        });
    }
    Ok(())
}

impl Recorder {
    /// Records a stable compaction of `x` (its elements in row-major order).
    pub(crate) fn record_compact(
        &mut self,
        x: &RawArray,
        keep: Keep<'_>,
        out: Kept<'_>,
    ) -> Result<()> {
        self.check_ctx(x, "the input array")?;
        let n = x.len;
        if n == 0 {
            if let Some(count) = out.count {
                self.record_fill(x, count, 1, 0)?;
            }
            return Ok(());
        }
        one_binding(self, "the array of a compaction", x.bytes())?;
        let mut flags = elem_flags(x.dtype);
        let mut sel = None;
        match keep {
            Keep::Mask(mask) => {
                self.check_ctx(mask, "the mask")?;
                one_binding(self, "the mask of a compaction", mask.bytes())?;
                flags |= CompactParams::COMPACT_MASK;
                sel = Some(mask);
            }
            Keep::Nonzero => flags |= CompactParams::COMPACT_NONZERO,
            Keep::Changes => flags |= CompactParams::COMPACT_CHANGES,
        }
        let tiles = n.div_ceil(COMPACT_TILE) as u32;
        let base = CompactParams {
            n: n as u32,
            tiles,
            groups_x: self.grid(tiles)?.0,
            flags,
            ..Default::default()
        };
        let counts = self.lease_temporary(tiles as usize, DType::U32)?;
        let offsets = self.lease_temporary(tiles as usize, DType::U32)?;
        // The count writes a bit per element for the scatter to read (a word per invocation,
        // 1/16 of a word per element), except where the scatter's binding 5 holds the
        // permutation of unique's inverse.
        let permuted = matches!(out.inverse, Some((_, Some(_))));
        let bits = if permuted {
            None
        } else {
            Some(self.lease_temporary(tiles as usize * 256, DType::U32)?)
        };
        let bits_flag = if permuted {
            0
        } else {
            CompactParams::COMPACT_BITS
        };
        let count_params = CompactParams {
            flags: base.flags | bits_flag,
            ..base
        };
        let count_src = sel.unwrap_or(x);
        let kernel = Kernel::Compact(CompactVariant::Count);
        let cb = counts.bytes();
        let b = bits.as_ref();
        self.push_dispatch_aux(kernel, count_src, &counts, cb, b, count_params, (tiles, 1))?;
        self.record_scan(&Scan::new(ScanOp::Add), &counts, &[counts.len], &offsets)?;
        // 16-bit elements are written a word each, then packed two to a word.
        let half = x.dtype.size_bytes() == 2;
        let wide = match out.values {
            Some(_) if half => Some(self.lease_temporary(n, DType::U32)?),
            _ => None,
        };
        let mut p = count_params;
        if out.values.is_some() {
            p.flags |= CompactParams::COMPACT_VALUES;
        }
        if out.rest {
            p.flags |= CompactParams::COMPACT_REST;
        }
        if out.indices.is_some() {
            p.flags |= CompactParams::COMPACT_INDICES;
        }
        let mut aux = out.indices;
        if let Some((inverse, perm)) = out.inverse {
            p.flags |= CompactParams::COMPACT_INVERSE;
            aux = Some(inverse);
            if let Some(perm) = perm {
                p.flags |= CompactParams::COMPACT_PERM;
                sel = Some(perm);
            }
        }
        // Where nothing is written at binding 2, the counts stand in.
        let dst = wide.as_ref().or(out.values).unwrap_or(&counts);
        let kernel = Kernel::Compact(CompactVariant::Scatter);
        self.push_dispatch_aux(kernel, x, dst, dst.bytes(), aux, p, (tiles, 1))?;
        self.bind_second(&offsets, 0..offsets.bytes());
        if let Some(sel) = bits.as_ref().or(sel) {
            self.bind_carries(sel);
        }
        if let (Some(wide), Some(values)) = (&wide, out.values) {
            self.record_narrow(wide, values, n)?;
        }
        if let Some(count) = out.count {
            let kernel = Kernel::Compact(CompactVariant::Total);
            self.push_dispatch(kernel, &offsets, count, 4, base, (1, 1))?;
        }
        Ok(())
    }

    /// Packs `n` 16-bit elements, one per word of `wide`, two to a word of `packed`.
    pub(crate) fn record_narrow(
        &mut self,
        wide: &RawArray,
        packed: &RawArray,
        n: usize,
    ) -> Result<()> {
        let words = n.div_ceil(2).div_ceil(256) as u32;
        let p = SortParams {
            n: n as u32,
            groups_x: self.grid(words)?.0,
            ..Default::default()
        };
        let bytes = (n.div_ceil(2) * 4) as u64;
        let kernel = Kernel::Sort(SortVariant::Narrow);
        self.push_dispatch(kernel, wide, packed, bytes, p, (words, 1))
    }

    /// Sets the places of `values` (`capacity` elements, rows of `width`) past the `count`
    /// rows kept to the bits `value`.
    pub(crate) fn record_fill_rest(
        &mut self,
        values: &RawArray,
        capacity: usize,
        width: usize,
        count: &RawArray,
        value: u32,
    ) -> Result<()> {
        if capacity == 0 {
            return Ok(());
        }
        let half = values.dtype.size_bytes() == 2;
        let words = if half { capacity.div_ceil(2) } else { capacity };
        let groups = words.div_ceil(256) as u32;
        let p = CompactParams {
            n: capacity as u32,
            groups_x: self.grid(groups)?.0,
            flags: elem_flags(values.dtype),
            len: width as u32,
            value,
            ..Default::default()
        };
        let kernel = Kernel::Compact(CompactVariant::Pad);
        self.push_dispatch(kernel, count, values, (words * 4) as u64, p, (groups, 1))
    }

    /// The length of each of the `count` runs whose first elements' places are `starts`, of
    /// `n` elements in all, into `lengths`.
    pub(crate) fn record_run_lengths(
        &mut self,
        starts: &RawArray,
        count: &RawArray,
        n: usize,
        lengths: &RawArray,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let groups = n.div_ceil(256) as u32;
        let p = CompactParams {
            n: n as u32,
            groups_x: self.grid(groups)?.0,
            ..Default::default()
        };
        let kernel = Kernel::Compact(CompactVariant::RunLengths);
        self.push_dispatch(kernel, starts, lengths, lengths.bytes(), p, (groups, 1))?;
        self.bind_second(count, 0..4);
        Ok(())
    }

    /// The coordinates in `shape` of each of the `count` flat indices of `flat` (capacity
    /// `capacity`), `shape.len()` per row of `coords`.
    pub(crate) fn record_unravel(
        &mut self,
        flat: &RawArray,
        count: &RawArray,
        capacity: usize,
        shape: &[usize],
        coords: &RawArray,
    ) -> Result<()> {
        if capacity == 0 || shape.is_empty() {
            return Ok(());
        }
        let groups = capacity.div_ceil(256) as u32;
        for first in (0..shape.len()).step_by(3) {
            let mut dims = [1u32; 4];
            for (d, dim) in dims.iter_mut().take(3).enumerate() {
                if let Some(&size) = shape.get(first + d) {
                    *dim = size as u32;
                }
            }
            dims[3] = shape.iter().skip(first + 3).product::<usize>() as u32;
            let p = CompactParams {
                n: capacity as u32,
                groups_x: self.grid(groups)?.0,
                len: shape.len() as u32,
                first: first as u32,
                dims,
                ..Default::default()
            };
            let kernel = Kernel::Compact(CompactVariant::Unravel);
            self.push_dispatch(kernel, flat, coords, coords.bytes(), p, (groups, 1))?;
            self.bind_second(count, 0..4);
        }
        Ok(())
    }

    /// Records the comparison `cmp` of each element of `x` with the value whose bits are
    /// `bits` (floats: the f32 value `as_f32`) into `mask` (a u32 each: 1 where it holds).
    pub(crate) fn record_compare(
        &mut self,
        x: &RawArray,
        cmp: Cmp,
        bits: u32,
        as_f32: f32,
        mask: &RawArray,
    ) -> Result<()> {
        self.check_ctx(x, "the input array")?;
        let n = x.len;
        if n == 0 {
            return Ok(());
        }
        one_binding(self, "the array of a comparison", x.bytes())?;
        one_binding(self, "the mask of a comparison", mask.bytes())?;
        let op = match cmp {
            Cmp::Lt => CompactParams::COMPACT_LT,
            Cmp::Le => CompactParams::COMPACT_LT | CompactParams::COMPACT_EQ,
            Cmp::Gt => CompactParams::COMPACT_GT,
            Cmp::Ge => CompactParams::COMPACT_GT | CompactParams::COMPACT_EQ,
            Cmp::Eq => CompactParams::COMPACT_EQ,
            Cmp::Ne => CompactParams::COMPACT_NE,
        };
        let groups = n.div_ceil(256) as u32;
        let p = CompactParams {
            n: n as u32,
            groups_x: self.grid(groups)?.0,
            flags: elem_flags(x.dtype) | op,
            lo: as_f32,
            value: bits,
            ..Default::default()
        };
        let kernel = Kernel::Compact(CompactVariant::Compare);
        self.push_dispatch(kernel, x, mask, mask.bytes(), p, (groups, 1))
    }

    /// Records histograms of the rows of `len` elements of `x` into `out` (`bins` u32 counts a
    /// row): floats over `range` (lo, hi), or, with `range` None, integers (bincount), where an
    /// element outside `0..bins` is an error read with the results.
    pub(crate) fn record_histogram(
        &mut self,
        x: &RawArray,
        len: usize,
        bins: usize,
        range: Option<(f32, f32)>,
        out: &RawArray,
    ) -> Result<()> {
        self.check_ctx(x, "the input array")?;
        let n = x.len;
        one_binding(self, "the array of a histogram", x.bytes())?;
        one_binding(self, "the counts of a histogram", out.bytes())?;
        self.record_fill(x, out, out.len, 0)?;
        if n == 0 || len == 0 {
            return Ok(());
        }
        let rows = n / len;
        let row_tiles = len.div_ceil(HISTOGRAM_TILE);
        let row_groups = HISTOGRAM_WORKGROUPS.div_ceil(rows).clamp(1, row_tiles);
        let tiles = u32::try_from(rows * row_groups).map_err(|_| Error::TooLarge {
            what: format!("a histogram of {rows} rows"),
            bytes: x.bytes(),
            limit: u64::from(u32::MAX),
            limit_name: "2^32 - 1 workgroups",
        })?;
        let mut flags = elem_flags(x.dtype);
        let (lo, hi) = range.unwrap_or((0.0, 0.0));
        let flag = if range.is_none() {
            flags |= CompactParams::COMPACT_INTS;
            let flag = self.lease_temporary(1, DType::U32)?;
            self.record_fill(x, &flag, 1, u32::MAX)?;
            Some(flag)
        } else {
            None
        };
        let p = CompactParams {
            n: n as u32,
            tiles,
            groups_x: self.grid(tiles)?.0,
            flags,
            len: len as u32,
            bins: bins as u32,
            lo,
            scale: bins as f32 / (hi - lo),
            hi,
            row_groups: row_groups as u32,
            ..Default::default()
        };
        let private = bins <= HISTOGRAM_PRIVATE_BINS;
        let kernel = Kernel::Compact(CompactVariant::Histogram { private });
        self.push_dispatch_aux(kernel, x, out, out.bytes(), flag.as_ref(), p, (tiles, 1))?;
        if let Some(flag) = &flag {
            self.read_check(
                flag,
                Check::Values {
                    op: "bincount",
                    allowed: "bincount counts values in 0..length",
                },
            );
        }
        Ok(())
    }
}
