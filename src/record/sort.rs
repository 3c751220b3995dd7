//! Recording a radix sort: per 8-bit digit, a count of each tile's digits, an exclusive scan of
//! the counts, and a stable scatter, the keys (and values) going back and forth between the
//! output and a temporary; 16-bit keys widened to a word each before and packed after.

use crate::array::RawArray;
use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::params::SortParams;
use crate::kernels::{Kernel, SortVariant, SORT_TILE};
use crate::ops::{Scan, ScanOp, Sort};
use crate::record::Recorder;

/// What moves with the keys.
pub(crate) enum SortValues<'a> {
    /// Nothing.
    None,
    /// An array of 4-byte values, one per key.
    Array(&'a RawArray),
    /// Each key's index (an argsort).
    Indices,
}

/// The flag that orders a key type's bits.
pub(crate) fn key_flags(dtype: DType) -> u32 {
    match dtype {
        DType::U32 => 0,
        DType::I32 => SortParams::SORT_I32,
        DType::F32 => SortParams::SORT_F32,
        DType::F16 => SortParams::SORT_F16,
        DType::BF16 => SortParams::SORT_BF16,
    }
}

impl Recorder {
    /// Records a stable radix sort of `keys` into `keys_out`, moving `values` into `values_out`:
    /// the whole array as one row (`len` = its length), or each row of `len` keys on its own.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn record_sort(
        &mut self,
        sort: &Sort,
        keys: &RawArray,
        len: usize,
        values: SortValues<'_>,
        keys_out: &RawArray,
        values_out: Option<&RawArray>,
    ) -> Result<()> {
        self.check_ctx(keys, "the keys")?;
        self.check_ctx(keys_out, "the output array")?;
        let mut flags = key_flags(keys.dtype);
        if sort.descending {
            flags |= SortParams::SORT_DESCENDING;
        }
        if let SortValues::Array(v) = values {
            self.check_ctx(v, "the values")?;
            if v.dtype.size_bytes() != 4 {
                return Err(Error::UnsupportedInput {
                    op: "sort_pairs (values)",
                    input: v.dtype,
                    allowed: "4-byte values: u32, i32, f32".into(),
                });
            }
        }
        let n = keys.len;
        if n == 0 {
            return Ok(());
        }
        let rows = n / len.max(1);
        // 16-bit keys are sorted widened to a word each: two passes of their 16 bits.
        let half = keys.dtype.size_bytes() == 2;
        self.ctx.check_binding_size(n, DType::U32, "a sort")?;
        let tiles = n.div_ceil(SORT_TILE);
        let groups = u32::try_from(tiles).map_err(|_| Error::TooLarge {
            what: format!("a sort of {n} keys"),
            bytes: (n * 4) as u64,
            limit: u64::from(u32::MAX) * SORT_TILE as u64,
            limit_name: "2^32 - 1 tiles",
        })?;
        let params = SortParams {
            n: n as u32,
            tiles: groups,
            groups_x: self.grid(groups)?.0,
            len: len as u32,
            ..Default::default()
        };
        // The passes: the keys' digits, then (rows) the digits of each key's row, taken from
        // its index, which moves with it from the first pass on.
        let key_passes = if half { 2 } else { 4 };
        let row_passes = if rows > 1 {
            (usize::BITS - (rows - 1).leading_zeros()).div_ceil(8)
        } else {
            0
        };
        let passes = key_passes + row_passes;
        let counts = self.lease_temporary(256 * tiles, DType::U32)?;
        let offsets = self.lease_temporary(256 * tiles, DType::U32)?;
        let temp_keys = self.lease_temporary(n, if half { DType::U32 } else { keys.dtype })?;
        // Each pass writes `last` or `temp`, alternating so that the last pass writes `last`.
        let lands_last = |pass: u32| (passes - 1 - pass).is_multiple_of(2);
        let wide = if half {
            let wide = self.lease_temporary(n, DType::U32)?;
            // The first pass reads what the widening wrote: not what it writes itself.
            let into = if lands_last(0) { &temp_keys } else { &wide };
            let words = n.div_ceil(256) as u32;
            let p = SortParams {
                groups_x: self.grid(words)?.0,
                ..params
            };
            let kernel = Kernel::Sort(SortVariant::Widen);
            self.push_dispatch(kernel, keys, into, (n * 4) as u64, p, (words, 1))?;
            Some(wide)
        } else {
            None
        };
        let (first, last) = match &wide {
            Some(w) if lands_last(0) => (&temp_keys, w),
            Some(w) => (w, w),
            None => (keys, keys_out),
        };
        // What moves with the keys: the caller's values (one row), or the indices (argsort, and
        // every sort of rows).
        let (carried, gather_into) = match (&values, values_out) {
            (SortValues::Array(v), Some(out)) if rows <= 1 => (Some((Some(*v), out.clone())), None),
            (SortValues::Indices, Some(out)) if rows <= 1 => (Some((None, out.clone())), None),
            (SortValues::None, _) if rows <= 1 => (None, None),
            _ => {
                let indices = self.lease_temporary(n, DType::U32)?;
                (Some((None, indices)), values_out)
            }
        };
        let temp_values = match &carried {
            Some((_, out)) => Some(self.lease_temporary(n, out.dtype)?),
            None => None,
        };
        let scan = Scan::new(ScanOp::Add).exclusive(true);
        for pass in 0..passes {
            let row_pass = pass >= key_passes;
            let (src, dst) = match (pass, lands_last(pass)) {
                (0, true) => (first, last),
                (0, false) => (first, &temp_keys),
                (_, true) => (&temp_keys, last),
                (_, false) => (last, &temp_keys),
            };
            let iota = pass == 0 && carried.as_ref().is_some_and(|(v, _)| v.is_none());
            let p = SortParams {
                shift: 8 * if row_pass { pass - key_passes } else { pass },
                flags: flags
                    | if iota { SortParams::SORT_IOTA } else { 0 }
                    | if row_pass { SortParams::SORT_ROWS } else { 0 },
                ..params
            };
            let (value_src, value_dst) = match (&carried, &temp_values) {
                (Some((given, out)), Some(temp)) => {
                    let dst = if lands_last(pass) { out } else { temp };
                    let src = match pass {
                        0 => *given,
                        _ if lands_last(pass) => Some(temp),
                        _ => Some(out),
                    };
                    (src, Some(dst))
                }
                _ => (None, None),
            };
            // A rows pass counts the rows of the indices (which moved with the keys).
            let counted = if row_pass {
                value_src.unwrap_or(src)
            } else {
                src
            };
            self.push_dispatch(
                Kernel::Sort(SortVariant::Count),
                counted,
                &counts,
                counts.bytes(),
                p,
                (groups, 1),
            )?;
            self.record_scan(&scan, &counts, &[counts.len], &offsets)?;
            self.push_dispatch_aux(
                Kernel::Sort(SortVariant::Scatter {
                    values: carried.is_some(),
                }),
                src,
                dst,
                (n * 4) as u64,
                value_dst,
                p,
                (groups, 1),
            )?;
            self.bind_carries(&offsets);
            if let Some(v) = value_src {
                self.bind_second(v, 0..(n * 4) as u64);
            }
        }
        if let Some(wide) = &wide {
            let words = n.div_ceil(2).div_ceil(256) as u32;
            let p = SortParams {
                groups_x: self.grid(words)?.0,
                ..params
            };
            let bytes = (n.div_ceil(2) * 4) as u64;
            let kernel = Kernel::Sort(SortVariant::Narrow);
            self.push_dispatch(kernel, wide, keys_out, bytes, p, (words, 1))?;
        }
        // Rows: the values at the sorted keys' indices, or the indices' places in their rows.
        if let (Some(out), Some((_, indices))) = (gather_into, &carried) {
            let words = n.div_ceil(256) as u32;
            let (source, flag) = match values {
                SortValues::Array(v) => (Some(v), 0),
                _ => (None, SortParams::SORT_MOD),
            };
            let p = SortParams {
                groups_x: self.grid(words)?.0,
                flags: flag,
                ..params
            };
            let kernel = Kernel::Sort(SortVariant::Gather);
            self.push_dispatch(kernel, indices, out, (n * 4) as u64, p, (words, 1))?;
            if let Some(v) = source {
                self.bind_second(v, 0..(n * 4) as u64);
            }
        }
        Ok(())
    }
}
