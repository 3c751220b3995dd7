//! Recording a radix sort: per 8-bit digit, a count of each tile's digits, an exclusive scan of
//! the counts, and a stable scatter, the keys (and values) going back and forth between the
//! output and a temporary; 16-bit keys widened to a word each before and packed after. Arrays
//! beyond one storage binding are sorted in pieces: each piece of the input counts its tiles'
//! digits, and scatters into each piece of the output the keys whose places lie there.

use std::ops::Range;

use crate::array::RawArray;
use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::params::SortParams;
use crate::kernels::{
    Kernel, SortVariant, SORT_ROW_MAX, SORT_SUBGROUP_MAX, SORT_SUBGROUP_MIN, SORT_TILE,
};
use crate::ops::{Scan, ScanOp, Sort};
use crate::record::Recorder;

/// Arrays of at least this many rows of more than [`SORT_ROW_MAX`] keys and at most
/// [`SORT_LOCAL_MAX_LEN`] are sorted a workgroup per row (enough rows to fill a GPU's cores;
/// fewer, longer rows take the passes over the whole array).
const SORT_LOCAL_MIN_ROWS: usize = 128;
/// See [`SORT_LOCAL_MIN_ROWS`].
const SORT_LOCAL_MAX_LEN: usize = 1 << 16;

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

/// What a sort of short rows writes of each row.
#[derive(Clone, Copy)]
pub(crate) enum Take {
    /// Every key.
    All,
    /// The first `k` (top-k).
    First(usize),
    /// The `k`-th alone, from 1 (kthvalue).
    Kth(usize),
}

/// The pieces of a sort: `n` keys, `piece_keys` a piece.
#[derive(Clone, Copy)]
struct Ends {
    n: usize,
    piece_keys: usize,
}

impl Ends {
    fn new(n: usize, piece_keys: usize) -> Ends {
        Ends { n, piece_keys }
    }

    /// Each piece's first key and length.
    fn each(self) -> impl Iterator<Item = (usize, usize)> {
        (0..self.n.div_ceil(self.piece_keys)).map(move |p| {
            (
                p * self.piece_keys,
                self.piece_keys.min(self.n - p * self.piece_keys),
            )
        })
    }
}

/// The byte window of a piece's keys (first key, length) in an array.
type Window = fn(usize, usize) -> Range<u64>;

/// The window of keys of a word each.
fn words(a: usize, m: usize) -> Range<u64> {
    (a * 4) as u64..((a + m) * 4) as u64
}

/// The window of 16-bit keys packed two to a word (`a` even).
fn packed(a: usize, m: usize) -> Range<u64> {
    (a / 2 * 4) as u64..((a + m).div_ceil(2) * 4) as u64
}

impl Recorder {
    /// Whether the scatter ranks keys with subgroup ballots: where the context uses subgroups
    /// and every subgroup the adapter may run has 16 to 128 invocations.
    fn sort_subgroups(&self) -> bool {
        let ctx = self.ctx();
        let caps = ctx.capabilities();
        ctx.tuning().subgroups
            && caps.subgroup_min_size >= SORT_SUBGROUP_MIN
            && caps.subgroup_max_size <= SORT_SUBGROUP_MAX
    }

    /// Records an element-wise pass of the sort (widen, narrow, gather) over each piece:
    /// `keys_per_group` keys a workgroup, `src` and `dst` bound at their windows of the piece,
    /// `second` (the gather's values) bound whole.
    #[allow(clippy::too_many_arguments)]
    fn push_pieces(
        &mut self,
        variant: SortVariant,
        (src, src_window): (&RawArray, Window),
        (dst, dst_window): (&RawArray, Window),
        second: Option<&RawArray>,
        ends: Ends,
        keys_per_group: usize,
        params: SortParams,
    ) -> Result<()> {
        for (a, m) in ends.each() {
            let g = m.div_ceil(keys_per_group) as u32;
            let p = SortParams {
                n: m as u32,
                groups_x: self.grid(g)?.0,
                ..params
            };
            let kernel = Kernel::Sort(variant);
            let (s, d) = ((src, src_window(a, m)), (dst, dst_window(a, m)));
            self.push_windowed(kernel, s, d, None, p, (g, 1))?;
            if let Some(v) = second {
                self.bind_second(v, 0..v.bytes());
            }
        }
        Ok(())
    }

    /// Records `out[i] = source[indices[i]]` for `i < n` (each array within one binding).
    pub(crate) fn record_gather(
        &mut self,
        source: &RawArray,
        indices: &RawArray,
        out: &RawArray,
        n: usize,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let ends = Ends::new(n, n);
        let (src, dst) = ((indices, words as Window), (out, words as Window));
        let p = SortParams::default();
        self.push_pieces(SortVariant::Gather, src, dst, Some(source), ends, 256, p)
    }

    /// Records the sort of rows of at most [`SORT_ROW_MAX`] keys, a workgroup each (the array
    /// within one binding), writing what `take` says of each row; 16-bit keys are written a
    /// word each, then packed.
    pub(crate) fn record_local_sort(
        &mut self,
        flags: u32,
        keys: &RawArray,
        len: usize,
        values: SortValues<'_>,
        (keys_out, values_out): (&RawArray, Option<&RawArray>),
        take: Take,
    ) -> Result<()> {
        let n = keys.len;
        let (k, kth) = match take {
            Take::All => (len, false),
            Take::First(k) => (k, false),
            Take::Kth(k) => (k, true),
        };
        let out_len = if kth { n / len } else { n / len * k };
        let rows = u32::try_from(n / len).map_err(|_| Error::TooLarge {
            what: format!("a sort of {} rows", n / len),
            bytes: (n * 4) as u64,
            limit: u64::from(u32::MAX),
            limit_name: "2^32 - 1 rows",
        })?;
        let half = keys.dtype.size_bytes() == 2;
        let (flag, given) = match values {
            SortValues::None => (0, None),
            SortValues::Indices => (SortParams::SORT_IOTA, None),
            SortValues::Array(v) => (SortParams::SORT_PAIRS, Some(v)),
        };
        let params = SortParams {
            n: n as u32,
            tiles: rows,
            groups_x: self.grid(rows)?.0,
            len: len as u32,
            k: k as u32,
            flags: flags | flag | if kth { SortParams::SORT_KTH } else { 0 },
            dst_len: n as u32,
            ..Default::default()
        };
        let wide = if half {
            Some(self.lease_temporary(out_len, DType::U32)?)
        } else {
            None
        };
        let kernel = Kernel::Sort(SortVariant::Local);
        let into = wide.as_ref().unwrap_or(keys_out);
        let aux = values_out.filter(|_| flag != 0);
        let bytes = (out_len * 4) as u64;
        self.push_dispatch_aux(kernel, keys, into, bytes, aux, params, (rows, 1))?;
        if aux.is_some() {
            self.window_aux(0..bytes);
        }
        if let Some(v) = given {
            self.bind_second(v, 0..(n * 4) as u64);
        }
        if let Some(wide) = &wide {
            let ends = Ends::new(out_len, out_len);
            let (src, dst) = ((wide, words as Window), (keys_out, packed as Window));
            self.push_pieces(SortVariant::Narrow, src, dst, None, ends, 512, params)?;
        }
        Ok(())
    }

    /// Records the sort of `rows` of `len` keys (more than [`SORT_ROW_MAX`]; the array within
    /// one binding) a workgroup per row and digit pass: each workgroup counts its row's digits
    /// and scatters its tiles in order, with no counts, scan or row passes; an argsort's values
    /// are the keys' places in their row from the first pass on.
    fn record_local_rows(
        &mut self,
        flags: u32,
        keys: &RawArray,
        len: usize,
        values: SortValues<'_>,
        (keys_out, values_out): (&RawArray, Option<&RawArray>),
    ) -> Result<()> {
        let n = keys.len;
        let rows = (n / len) as u32;
        let half = keys.dtype.size_bytes() == 2;
        let passes: u32 = if half { 2 } else { 4 };
        let params = SortParams {
            n: n as u32,
            tiles: rows,
            groups_x: self.grid(rows)?.0,
            len: len as u32,
            dst_len: n as u32,
            ..Default::default()
        };
        let temp_keys = self.lease_temporary(n, DType::U32)?;
        let wide = if half {
            let wide = self.lease_temporary(n, DType::U32)?;
            let ends = Ends::new(n, n);
            let (src, dst) = ((keys, packed as Window), (&wide, words as Window));
            self.push_pieces(SortVariant::Widen, src, dst, None, ends, 256, params)?;
            Some(wide)
        } else {
            None
        };
        // The passes alternate between the temporary and the output (even count: the first
        // writes the temporary, the last the output); 16-bit keys go back and forth between
        // their wide array and the temporary, then are packed.
        let (first, last) = match &wide {
            Some(w) => (w, w),
            None => (keys, keys_out),
        };
        let carried = values_out.filter(|_| !matches!(values, SortValues::None));
        let temp_values = match carried {
            Some(_) => Some(self.lease_temporary(n, DType::U32)?),
            None => None,
        };
        let subgroups = self.sort_subgroups();
        for pass in 0..passes {
            let to_last = pass % 2 == 1;
            let (src, dst) = match (pass, to_last) {
                (0, _) => (first, &temp_keys),
                (_, true) => (&temp_keys, last),
                (_, false) => (last, &temp_keys),
            };
            let (value_src, value_dst) = match (carried, &temp_values) {
                (Some(out), Some(temp)) => {
                    let src = match (pass, &values) {
                        (0, SortValues::Array(v)) => Some(*v),
                        (0, _) => None,
                        (_, _) if to_last => Some(temp),
                        _ => Some(out),
                    };
                    (src, Some(if to_last { out } else { temp }))
                }
                _ => (None, None),
            };
            let iota = pass == 0 && matches!(values, SortValues::Indices);
            let p = SortParams {
                shift: 8 * pass,
                flags: flags
                    | SortParams::SORT_LOCAL_ROWS
                    | if iota { SortParams::SORT_IOTA } else { 0 },
                ..params
            };
            let kernel = Kernel::Sort(SortVariant::Scatter {
                values: carried.is_some(),
                subgroups,
            });
            let whole = words(0, n);
            let (s, d) = ((src, whole.clone()), (dst, whole.clone()));
            self.push_windowed(kernel, s, d, value_dst, p, (rows, 1))?;
            if let Some(v) = value_src {
                self.bind_second(v, whole);
            }
        }
        if let Some(wide) = &wide {
            let ends = Ends::new(n, n);
            let (src, dst) = ((wide, words as Window), (keys_out, packed as Window));
            self.push_pieces(SortVariant::Narrow, src, dst, None, ends, 512, params)?;
        }
        Ok(())
    }

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
        if len <= SORT_ROW_MAX && (n * 4) as u64 <= self.binding_limit() {
            let outs = (keys_out, values_out);
            return self.record_local_sort(flags, keys, len, values, outs, Take::All);
        }
        let one_binding = (n * 4) as u64 <= self.piece_budget();
        if rows >= SORT_LOCAL_MIN_ROWS && len <= SORT_LOCAL_MAX_LEN && one_binding {
            let outs = (keys_out, values_out);
            return self.record_local_rows(flags, keys, len, values, outs);
        }
        // Arrays beyond one binding are sorted in pieces of whole tiles, each bound on its own.
        let piece_keys = (self.piece_budget() / 4) as usize / SORT_TILE * SORT_TILE;
        let pieces = n.div_ceil(piece_keys.max(SORT_TILE));
        let tiles = n.div_ceil(SORT_TILE);
        let too_large = |why: &str, bytes: u64| Error::TooLarge {
            what: format!("a sort of {n} keys ({why})"),
            bytes,
            limit: self.binding_limit(),
            limit_name: "max_storage_buffer_binding_size",
        };
        if piece_keys < SORT_TILE || (256 * tiles * 4) as u64 > self.binding_limit() {
            // Every pass binds the digit counts of all tiles: 1 KiB per tile of 2,048 keys.
            return Err(too_large("its digit counts", (256 * tiles * 4) as u64));
        }
        if pieces > 1 && rows > 1 && matches!(values, SortValues::Array(_)) {
            // The values of sorted rows are gathered from anywhere in the array.
            return Err(too_large("key-value pairs along rows", (n * 4) as u64));
        }
        let groups = u32::try_from(tiles).map_err(|_| Error::TooLarge {
            what: format!("a sort of {n} keys"),
            bytes: (n * 4) as u64,
            limit: u64::from(u32::MAX) * SORT_TILE as u64,
            limit_name: "2^32 - 1 tiles",
        })?;
        // Piece `p`: its first key and its length.
        let piece = |p: usize| (p * piece_keys, piece_keys.min(n - p * piece_keys));
        let params = SortParams {
            n: n as u32,
            tiles: groups,
            len: len as u32,
            dst_len: n as u32,
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
            let ends = Ends::new(n, piece_keys);
            let (src, dst) = ((keys, packed as Window), (into, words as Window));
            self.push_pieces(SortVariant::Widen, src, dst, None, ends, 256, params)?;
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
        let subgroups = self.sort_subgroups();
        for pass in 0..passes {
            let row_pass = pass >= key_passes;
            let (src, dst) = match (pass, lands_last(pass)) {
                (0, true) => (first, last),
                (0, false) => (first, &temp_keys),
                (_, true) => (&temp_keys, last),
                (_, false) => (last, &temp_keys),
            };
            let iota = pass == 0 && carried.as_ref().is_some_and(|(v, _)| v.is_none());
            let pass_params = SortParams {
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
            for p in 0..pieces {
                let (a, m) = piece(p);
                let g = m.div_ceil(SORT_TILE) as u32;
                let params = SortParams {
                    n: m as u32,
                    groups_x: self.grid(g)?.0,
                    tile_base: (a / SORT_TILE) as u32,
                    index_base: a as u32,
                    ..pass_params
                };
                let kernel = Kernel::Sort(SortVariant::Count { subgroups });
                let (src, dst) = ((counted, words(a, m)), (&counts, 0..counts.bytes()));
                self.push_windowed(kernel, src, dst, None, params, (g, 1))?;
            }
            self.record_scan(&scan, &counts, &[counts.len], &offsets)?;
            // Each piece of the input scatters into each piece of the output the keys whose
            // places lie there (one dispatch where the arrays fit one binding).
            for p in 0..pieces {
                let (a, m) = piece(p);
                let g = m.div_ceil(SORT_TILE) as u32;
                for q in 0..pieces {
                    let (b, l) = piece(q);
                    let params = SortParams {
                        n: m as u32,
                        groups_x: self.grid(g)?.0,
                        tile_base: (a / SORT_TILE) as u32,
                        index_base: a as u32,
                        dst_base: b as u32,
                        dst_len: l as u32,
                        ..pass_params
                    };
                    let kernel = Kernel::Sort(SortVariant::Scatter {
                        values: carried.is_some(),
                        subgroups,
                    });
                    let (src, dst) = ((src, words(a, m)), (dst, words(b, l)));
                    self.push_windowed(kernel, src, dst, value_dst, params, (g, 1))?;
                    if value_dst.is_some() {
                        self.window_aux(words(b, l));
                    }
                    self.bind_carries(&offsets);
                    if let Some(v) = value_src {
                        self.bind_second(v, words(a, m));
                    }
                }
            }
        }
        if let Some(wide) = &wide {
            let ends = Ends::new(n, piece_keys);
            let (src, dst) = ((wide, words as Window), (keys_out, packed as Window));
            self.push_pieces(SortVariant::Narrow, src, dst, None, ends, 512, params)?;
        }
        // Rows: the values at the sorted keys' indices, or the indices' places in their rows.
        if let (Some(out), Some((_, indices))) = (gather_into, &carried) {
            let (source, flag) = match values {
                SortValues::Array(v) => (Some(v), 0),
                _ => (None, SortParams::SORT_MOD),
            };
            let p = SortParams {
                flags: flag,
                ..params
            };
            // With values, one piece only (checked above): they are bound whole.
            let (src, dst) = ((indices, words as Window), (out, words as Window));
            let ends = Ends::new(n, piece_keys);
            self.push_pieces(SortVariant::Gather, src, dst, source, ends, 256, p)?;
        }
        Ok(())
    }
}
