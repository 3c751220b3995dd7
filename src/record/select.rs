//! Recording a radix select (top-k and kthvalue along rows): per 8-bit digit from the top, a
//! histogram of each row's keys that match the digits chosen so far and a pick of the digit
//! that holds the row's k-th key; then a count of each tile's keys above and equal to the k-th,
//! an exclusive scan of the counts, and a compaction that takes them in index order. A sort of
//! the k taken keys follows where the result is to be sorted. Rows of at most 1,024 keys are
//! instead sorted a workgroup each, and the first k (or the k-th) written.

use crate::array::RawArray;
use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::params::SortParams;
use crate::kernels::{Kernel, SortVariant, SORT_ROW_MAX, SORT_TILE};
use crate::ops::{Scan, ScanOp, Sort};
use crate::record::sort::key_flags;
use crate::record::{Recorder, SortValues, Take};

/// Keys a workgroup of the histogram pass reads (`HIST_TILE` in
/// shaders/sort/select_hist.wgsl).
const HIST_TILE: usize = 4096;

/// What the select writes.
pub(crate) enum Taken<'a> {
    /// The k keys of each row taken, largest (or smallest) first when `sorted`, else in index
    /// order, and their indices in the row.
    TopK {
        /// The taken keys, `rows * k`.
        values: &'a RawArray,
        /// Their indices, `rows * k`.
        indices: &'a RawArray,
        /// Whether to sort them.
        sorted: bool,
    },
    /// The k-th key of each row and its index (the k-th of a stable sort: among equal keys,
    /// the one of the lower index comes first).
    Kth {
        /// One key per row.
        value: &'a RawArray,
        /// Its index in the row.
        index: &'a RawArray,
    },
}

impl Recorder {
    /// Records the selection of the `k` largest keys (`smallest`: the smallest) of each row of
    /// `len` keys of `x`; `1 <= k <= len` (the callers check).
    pub(crate) fn record_select(
        &mut self,
        x: &RawArray,
        len: usize,
        k: usize,
        smallest: bool,
        taken: Taken<'_>,
    ) -> Result<()> {
        self.check_ctx(x, "the input array")?;
        let n = x.len;
        if n == 0 || k == 0 {
            return Ok(());
        }
        debug_assert!(k <= len);
        self.ctx.check_binding_size(n, x.dtype, "a top-k")?;
        // Short rows, sorted (or one key of each): a workgroup sorts each row and writes the
        // first k (or the k-th).
        let sorted = !matches!(taken, Taken::TopK { sorted: false, .. });
        if len <= SORT_ROW_MAX && (n * 4) as u64 <= self.binding_limit() && sorted {
            let order = key_flags(x.dtype)
                | if smallest {
                    0
                } else {
                    SortParams::SORT_DESCENDING
                };
            let (outs, take) = match taken {
                Taken::TopK {
                    values, indices, ..
                } => ((values, Some(indices)), Take::First(k)),
                Taken::Kth { value, index } => ((value, Some(index)), Take::Kth(k)),
            };
            return self.record_local_sort(order, x, len, SortValues::Indices, outs, take);
        }
        let rows = n / len;
        let half = x.dtype.size_bytes() == 2;
        let flags = key_flags(x.dtype)
            | if smallest {
                SortParams::SORT_DESCENDING
            } else {
                0
            };
        let count = |what: usize, bytes: u64| {
            u32::try_from(what).map_err(|_| Error::TooLarge {
                what: format!("a top-k of {n} keys"),
                bytes,
                limit: u64::from(u32::MAX),
                limit_name: "2^32 - 1 workgroups",
            })
        };
        let hist_tiles = count(rows * len.div_ceil(HIST_TILE), (n * 4) as u64)?;
        let tiles = count(rows * len.div_ceil(SORT_TILE), (n * 4) as u64)?;
        let row_groups = count(rows, (n * 4) as u64)?;
        let base = SortParams {
            n: n as u32,
            len: len as u32,
            k: k as u32,
            flags,
            ..Default::default()
        };
        let hist = self.lease_temporary(256 * rows, DType::U32)?;
        let state = self.lease_temporary(2 * rows, DType::U32)?;
        self.record_fill(x, &hist, 256 * rows, 0)?;
        // The digits, from the top: four of a 32-bit key, two of a 16-bit one (in the high
        // half of its select key).
        let lowest = if half { 16 } else { 0 };
        for shift in (lowest..32).step_by(8).rev() {
            let p = SortParams {
                tiles: hist_tiles,
                groups_x: self.grid(hist_tiles)?.0,
                row_tiles: len.div_ceil(HIST_TILE) as u32,
                shift,
                ..base
            };
            let kernel = Kernel::Sort(SortVariant::SelectHist);
            self.push_dispatch(kernel, x, &hist, hist.bytes(), p, (hist_tiles, 1))?;
            self.bind_carries(&state);
            let p = SortParams {
                tiles: row_groups,
                groups_x: self.grid(row_groups)?.0,
                shift,
                ..base
            };
            let kernel = Kernel::Sort(SortVariant::SelectPick);
            let (h, s) = (&hist, Some(&state));
            self.push_dispatch_aux(kernel, x, h, hist.bytes(), s, p, (row_groups, 1))?;
        }
        let p = SortParams {
            tiles,
            groups_x: self.grid(tiles)?.0,
            row_tiles: len.div_ceil(SORT_TILE) as u32,
            ..base
        };
        let counts = self.lease_temporary(2 * tiles as usize, DType::U32)?;
        let offsets = self.lease_temporary(2 * tiles as usize, DType::U32)?;
        let kernel = Kernel::Sort(SortVariant::SelectCount);
        self.push_dispatch(kernel, x, &counts, counts.bytes(), p, (tiles, 1))?;
        self.bind_carries(&state);
        let scan = Scan::new(ScanOp::Add).exclusive(true);
        self.record_scan(&scan, &counts, &[counts.len], &offsets)?;
        // 16-bit keys are taken a word each, then packed two to a word.
        let (keys_into, index_into, kth, out_len) = match &taken {
            Taken::TopK {
                values, indices, ..
            } => (*values, *indices, false, rows * k),
            Taken::Kth { value, index } => (*value, *index, true, rows),
        };
        let wide = if half {
            Some(self.lease_temporary(out_len, DType::U32)?)
        } else {
            None
        };
        let sorted = matches!(taken, Taken::TopK { sorted: true, .. });
        let (unsorted_keys, unsorted_indices) = if sorted {
            let keys = self.lease_temporary(out_len, x.dtype)?;
            let indices = self.lease_temporary(out_len, DType::U32)?;
            (Some(keys), Some(indices))
        } else {
            (None, None)
        };
        let packed_keys = unsorted_keys.as_ref().unwrap_or(keys_into);
        let scatter_keys = wide.as_ref().unwrap_or(packed_keys);
        let scatter_indices = unsorted_indices.as_ref().unwrap_or(index_into);
        let p = SortParams {
            flags: flags | if kth { SortParams::SORT_KTH } else { 0 },
            ..p
        };
        self.push_dispatch_aux(
            Kernel::Sort(SortVariant::SelectScatter),
            x,
            scatter_keys,
            (out_len * 4) as u64,
            Some(scatter_indices),
            p,
            (tiles, 1),
        )?;
        self.bind_carries(&state);
        self.bind_second(&offsets, 0..offsets.bytes());
        if let Some(wide) = &wide {
            let words = out_len.div_ceil(2).div_ceil(256) as u32;
            let p = SortParams {
                n: out_len as u32,
                groups_x: self.grid(words)?.0,
                ..base
            };
            let bytes = (out_len.div_ceil(2) * 4) as u64;
            let kernel = Kernel::Sort(SortVariant::Narrow);
            self.push_dispatch(kernel, wide, packed_keys, bytes, p, (words, 1))?;
        }
        if let (Some(keys), Some(indices)) = (&unsorted_keys, &unsorted_indices) {
            // Taken in index order, so the stable sort keeps equal keys' lower indices first.
            let sort = Sort::new().descending(!smallest);
            self.record_sort(
                &sort,
                keys,
                k,
                SortValues::Array(indices),
                keys_into,
                Some(index_into),
            )?;
        }
        Ok(())
    }
}
