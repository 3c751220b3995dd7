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
fn key_flags(dtype: DType) -> u32 {
    match dtype {
        DType::U32 => 0,
        DType::I32 => SortParams::SORT_I32,
        DType::F32 => SortParams::SORT_F32,
        DType::F16 => SortParams::SORT_F16,
        DType::BF16 => SortParams::SORT_BF16,
    }
}

impl Recorder {
    /// Records a stable radix sort of `keys` into `keys_out`, moving `values` into `values_out`.
    pub(crate) fn record_sort(
        &mut self,
        sort: &Sort,
        keys: &RawArray,
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
            ..Default::default()
        };
        let counts = self.lease_temporary(256 * tiles, DType::U32)?;
        let offsets = self.lease_temporary(256 * tiles, DType::U32)?;
        let temp_keys = self.lease_temporary(n, if half { DType::U32 } else { keys.dtype })?;
        let wide = if half {
            let wide = self.lease_temporary(n, DType::U32)?;
            let words = n.div_ceil(256) as u32;
            let p = SortParams {
                groups_x: self.grid(words)?.0,
                ..params
            };
            let kernel = Kernel::Sort(SortVariant::Widen);
            self.push_dispatch(kernel, keys, &wide, wide.bytes(), p, (words, 1))?;
            Some(wide)
        } else {
            None
        };
        // Keys: first → temp → last (→ temp → last): the last pass writes `last`.
        let (first, last) = match &wide {
            Some(w) => (w, w),
            None => (keys, keys_out),
        };
        let moves = !matches!(values, SortValues::None);
        let temp_values = match (moves, values_out) {
            (true, Some(out)) => Some((self.lease_temporary(n, out.dtype)?, out)),
            _ => None,
        };
        let scan = Scan::new(ScanOp::Add).exclusive(true);
        let passes = if half { 2 } else { 4 };
        for pass in 0..passes {
            let (src, dst) = match pass {
                0 => (first, &temp_keys),
                1 | 3 => (&temp_keys, last),
                _ => (last, &temp_keys),
            };
            let p = SortParams {
                shift: 8 * pass,
                flags: flags
                    | if pass == 0 && matches!(values, SortValues::Indices) {
                        SortParams::SORT_IOTA
                    } else {
                        0
                    },
                ..params
            };
            self.push_dispatch(
                Kernel::Sort(SortVariant::Count),
                src,
                &counts,
                counts.bytes(),
                p,
                (groups, 1),
            )?;
            self.record_scan(&scan, &counts, &[counts.len], &offsets)?;
            let (value_src, value_dst) = match &temp_values {
                Some((temp, out)) => match pass {
                    0 => (
                        match values {
                            SortValues::Array(v) => Some(v),
                            _ => None,
                        },
                        Some(temp),
                    ),
                    1 | 3 => (Some(temp), Some(*out)),
                    _ => (Some(*out), Some(temp)),
                },
                None => (None, None),
            };
            self.push_dispatch_aux(
                Kernel::Sort(SortVariant::Scatter { values: moves }),
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
        Ok(())
    }
}
