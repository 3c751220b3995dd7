//! Planning a reduction: shapes and axes → problems → passes. Pure functions, tested without a
//! device.
//!
//! A reduction over a set of axes of a contiguous row-major array is first simplified: size-1
//! dimensions are dropped and adjacent dimensions that are both reduced (or both kept) are
//! merged. What remains alternates kept and reduced groups; each reduced group, innermost
//! first, is one *problem* `[outer, r, inner]` reduced over `r` (so `N x 1`, `1 x N`, a middle
//! axis and several non-adjacent axes all come down to the same few shapes). A problem is
//! planned as passes:
//!
//! - `outer == inner == 1` with a scalar operation (sum, prod, min, max, mean): the whole-array
//!   kernel ([`plan_passes`]): up to `max_workgroups` workgroups, vec4 loads, then passes over
//!   the partials until one workgroup writes the result.
//! - argmin/argmax of a whole f32 array: a flat first pass (vec4 loads, integer keys, up to
//!   `max_workgroups` workgroups, [`Layout::Flat`]), then its states as below.
//! - `inner == 1`: the rows layout, with as many threads per row as the row is long (up to a
//!   workgroup), several short rows per workgroup, and long rows split across workgroups when
//!   there are too few rows to fill the GPU (about `target_workgroups` in all). Raw 16-bit
//!   input with rows of even length reads one u32 word (two elements) per load
//!   ([`Layout::RowPairs`]).
//! - `inner > 1`: the columns layout: threads across adjacent columns read coalesced; the
//!   reduced axis is split across workgroups when there are few columns. Raw 16-bit input with
//!   an even number of columns takes two adjacent columns per thread, one u32 word
//!   ([`Layout::ColPairs`]).
//!
//! Split problems write partial *states* (a value; (count, mean, M2) for var/std; (value, index)
//! for argmin/argmax) and a further pass combines them. Every pass of every problem goes into
//! the same recorder, so one submission runs the whole reduction.

use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::{AxisVariant, Layout, FLAT_LAST_GROUP_MAX_GROUPS, LOOKBACK_CLEAN_TILES};
use crate::ops::ReduceOp;
use crate::plan::tuning::Tuning;

/// (elements of the result, elements reduced into each) of reducing `shape` over `mask`.
pub(crate) fn sizes(shape: &[usize], mask: &[bool]) -> (usize, usize) {
    shape.iter().zip(mask).fold(
        (1, 1),
        |(out, r), (&d, &m)| if m { (out, r * d) } else { (out * d, r) },
    )
}

/// One `[outer, r, inner]` reduction over `r`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Problem {
    pub outer: usize,
    pub r: usize,
    pub inner: usize,
}

/// Splits a reduction of `shape` over the `mask`ed axes into problems, innermost first.
pub(crate) fn problems(shape: &[usize], mask: &[bool]) -> Vec<Problem> {
    let (out_len, r_total) = sizes(shape, mask);
    if r_total <= 1 {
        // Nothing to combine (or nothing at all): one element (or none) per output.
        return vec![Problem {
            outer: out_len,
            r: r_total,
            inner: 1,
        }];
    }
    let mut dims: Vec<(usize, bool)> = Vec::new();
    for (&d, &m) in shape.iter().zip(mask) {
        if d == 1 {
            continue;
        }
        match dims.last_mut() {
            Some(last) if last.1 == m => last.0 *= d,
            _ => dims.push((d, m)),
        }
    }
    let mut out = Vec::new();
    while let Some(g) = dims.iter().rposition(|&(_, m)| m) {
        out.push(Problem {
            outer: dims[..g].iter().map(|d| d.0).product(),
            r: dims[g].0,
            inner: dims[g + 1..].iter().map(|d| d.0).product(),
        });
        dims.remove(g);
    }
    out
}

/// One pass of the whole-array kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pass {
    /// Elements this pass reads.
    pub n: u32,
    /// Workgroups it runs (and values it writes).
    pub groups: u32,
}

/// Vec4 words each thread of a first pass reads at least, before more workgroups are added.
pub(crate) const MIN_VEC4_PER_THREAD: u64 = 4;

/// Plans the whole-array passes that reduce `n` elements to one value.
pub(crate) fn plan_passes(n: u32, workgroup_size: u32, max_workgroups: u32) -> Vec<Pass> {
    let mut passes = Vec::new();
    let mut n = n;
    loop {
        let n_vec = u64::from(n / 4);
        let per_group = u64::from(workgroup_size) * MIN_VEC4_PER_THREAD;
        let groups = n_vec
            .div_ceil(per_group)
            .clamp(1, u64::from(max_workgroups.max(1))) as u32;
        passes.push(Pass { n, groups });
        if groups == 1 {
            return passes;
        }
        n = groups;
    }
}

/// One pass of the general kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AxisPass {
    pub layout: Layout,
    pub outer: u32,
    pub r: u32,
    pub inner: u32,
    pub splits: u32,
    pub chunk: u32,
    pub tiles: u32,
    pub lanes: u32,
    /// Workgroups per split (tiles of outputs); the dispatch runs `tiles_total * splits`.
    pub tiles_total: u32,
}

/// Elements each thread reads at least before a reduced axis is split across more workgroups.
const MIN_ELEMS_PER_THREAD: u64 = 16;

/// Threads per row of the row pairs layout ([`Layout::RowPairs`]) for `outer` rows of `r`
/// 16-bit elements: 64 words a thread where the rows still give `target` workgroups of `wg`
/// threads, else 32 where that does, else 16. On the H200 (2026-12-03, batch µs, torch beside
/// them), 65536 x 1024 f16 took 75.0 with 4 words a thread, then with 16 / 32 / 64: sum 44.6 /
/// 42.0 / 41.2 (torch 44.6), max 58.5 / 49.5 / 48.0 (56.3), argmax 65.4 / 54.0 / 51.5 (92.8);
/// 8192 x 8192 f16: sum 45.9 / 41.4 / 39.5 (53.0), max 55.6 / 48.7 / 47.0 (79.6).
fn row_pair_lanes(r: u64, outer: u64, wg: u64, target: u64) -> u64 {
    let lanes = |words_per_thread: u64| {
        (r / 2)
            .div_ceil(words_per_thread)
            .next_power_of_two()
            .clamp(1, wg)
    };
    [64, 32]
        .into_iter()
        .map(lanes)
        .find(|&l| outer * l >= target * wg)
        .unwrap_or_else(|| lanes(16))
}

/// Plans the passes of the general kernel for `p`, aiming for about `target` workgroups.
/// `max_outputs` caps the values a pass writes (states of a split axis included), so that they
/// fit one storage binding. `pairs`: the input is raw 16-bit elements, so a first pass over
/// columns may give each thread two adjacent columns ([`Layout::ColPairs`]), and a first pass
/// over rows of even length whole words ([`Layout::RowPairs`]).
pub(crate) fn plan_axis(
    p: Problem,
    workgroup_size: u32,
    target: u32,
    max_outputs: u64,
    pairs: bool,
) -> Vec<AxisPass> {
    let wg = u64::from(workgroup_size);
    let target = u64::from(target.max(1));
    let (outer, inner) = (p.outer as u64, p.inner as u64);
    let mut r = p.r as u64;
    let mut passes = Vec::new();
    loop {
        // The wide layouts: each thread owns four whole outputs (one thread per short row; or
        // tiles of 4 x WG columns with no slices).
        let row_pairs = pairs && passes.is_empty() && r.is_multiple_of(2);
        let (layout, lanes, tiles, base, per_split_threads) = if inner == 1 {
            let lanes = (r.div_ceil(8)).next_power_of_two().clamp(1, wg);
            if lanes == 1 {
                (Layout::RowsWide, 1, 1, outer.div_ceil(4 * wg), 1)
            } else {
                // 16-bit rows: one u32 word (two elements) per load; on the H200 the sum of
                // 8192 x 8192 f16 over axis 1 took 45.8 against 62.2 us with one element per
                // load (torch: 53.0-55.6).
                let layout = if row_pairs {
                    Layout::RowPairs
                } else {
                    Layout::Rows
                };
                let lanes = if row_pairs {
                    row_pair_lanes(r, outer, wg, target)
                } else {
                    lanes
                };
                let rows_per_group = wg / lanes;
                (layout, lanes, 1, outer.div_ceil(rows_per_group), lanes)
            }
        } else {
            let cols = inner.next_power_of_two().min(wg);
            let wide_tiles = inner.div_ceil(4 * wg);
            // Wide tiles only where the outputs alone fill the GPU (a short reduced axis, e.g.
            // 3 x 2^24 over axis 0): with a long axis split across workgroups, plain
            // 256-column tiles measured faster on the H200 (8192 x 8192 over axis 0).
            if cols == wg && outer * wide_tiles >= target {
                (Layout::ColsWide, wg, wide_tiles, outer * wide_tiles, 1)
            } else if pairs && passes.is_empty() && inner.is_multiple_of(2) {
                // 16-bit columns: one u32 word (two columns) per thread, measured 0.71x
                // PyTorch on 8192 x 8192 f16 over axis 0 with one column per thread (H200).
                let lanes = (inner / 2).next_power_of_two().min(wg);
                let tiles = (inner / 2).div_ceil(lanes);
                (Layout::ColPairs, lanes, tiles, outer * tiles, wg / lanes)
            } else {
                let tiles = inner.div_ceil(cols);
                (Layout::Cols, cols, tiles, outer * tiles, wg / cols)
            }
        };
        let mut splits = 1;
        let splittable =
            matches!(layout, Layout::Cols | Layout::ColsWide | Layout::ColPairs) || lanes == wg;
        // Row pairs split a row on whole words.
        let grain = if layout == Layout::RowPairs { 2 } else { 1 };
        if splittable && base < target {
            splits = target
                .div_ceil(base)
                .min(r.div_ceil(per_split_threads * MIN_ELEMS_PER_THREAD))
                .min(max_outputs / (outer * inner).max(1))
                .max(1);
        }
        let chunk = r.div_ceil(splits).max(1).next_multiple_of(grain);
        splits = r.div_ceil(chunk).max(1);
        passes.push(AxisPass {
            layout,
            outer: outer as u32,
            r: r as u32,
            inner: inner as u32,
            splits: splits as u32,
            chunk: chunk as u32,
            tiles: tiles as u32,
            lanes: lanes as u32,
            tiles_total: base as u32,
        });
        if splits == 1 {
            return passes;
        }
        r = splits;
    }
}

/// Elements of one block of the values in a segmented reduction's passes over long segments
/// (log2): a workgroup reduces a block, and the pass that finishes a long segment combines one
/// state per block it spans.
pub const SEGMENT_BLOCK_SHIFT: u32 = 12;

/// A segmented reduction's passes over `segments` segments of `values` elements: `lanes`
/// threads per segment (a power of two up to `wg`, from the mean segment length, about eight
/// elements a thread) in `tiles` workgroups of `wg / lanes` segments, for the segments of at
/// most `long` elements (at most 64 a thread, and at least a block); longer ones are reduced by
/// `blocks` blocks of 2^[`SEGMENT_BLOCK_SHIFT`] elements, a workgroup each, and finished by a
/// second dispatch of `blocks` workgroups. `blocks` is 0 where `longest` (the longest segment,
/// or `None` where the offsets are on the GPU and unknown) shows that no segment is long. So
/// no thread walks more than max(64, 2^12 / lanes) elements of one segment, whatever the
/// layout (llvmpipe ends every loop of an invocation after 65,535 iterations in all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SegmentPass {
    pub lanes: u32,
    pub tiles: u32,
    pub long: u32,
    pub blocks: u32,
}

pub fn plan_segments(segments: u64, values: u64, longest: Option<u64>, wg: u32) -> SegmentPass {
    let mean = values.div_ceil(segments.max(1));
    let lanes = mean.div_ceil(8).next_power_of_two().clamp(1, u64::from(wg)) as u32;
    let tiles = segments.div_ceil(u64::from(wg / lanes)).max(1);
    let long = (lanes * 64).max(1 << SEGMENT_BLOCK_SHIFT);
    let blocks = match longest {
        Some(l) if l <= u64::from(long) => 0,
        _ => values.div_ceil(1 << SEGMENT_BLOCK_SHIFT),
    };
    SegmentPass {
        lanes,
        tiles: tiles as u32,
        long,
        blocks: blocks as u32,
    }
}

/// Where one piece of a problem too large for one storage binding reads and writes: the element
/// of the input where its view starts, the output (or state) where its results start, the
/// reduced-axis index of its first row (argmin/argmax report whole-axis indices), and whether
/// it combines its results into the states already there (pieces of one long reduced axis).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Piece {
    pub src_at: u64,
    pub dst_at: u64,
    pub j_base: u32,
    pub accumulate: bool,
}

/// What cutting a problem into pieces depends on: the operation and input type (for messages),
/// whether the array read holds states, whether the operation is a scalar one without a map,
/// the bytes of an element read, of a result written and of a state, the largest binding, the
/// bytes a piece may take (the binding less room for alignment) and the offset alignment.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CutInput {
    pub op: ReduceOp,
    pub input: DType,
    pub x_state: bool,
    pub simple: bool,
    pub src_elem: u64,
    pub out_elem: u64,
    pub limit: u64,
    pub budget: u64,
    pub align: u64,
}

/// How a problem is cut into pieces that each fit one storage binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The problem fits: one piece.
    Whole,
    /// A whole array of a scalar operation in runs of elements, each reduced to one of `runs`
    /// values, then those values (a problem of their own).
    Runs {
        pieces: Vec<(Problem, Piece)>,
        runs: usize,
    },
    /// Whole slices along the outer axis, as many per piece as fit, written in place.
    Slices { pieces: Vec<(Problem, Piece)> },
    /// One slice is larger than a binding: runs of rows of the reduced axis, each combined
    /// into the states of its outputs, then (for the last problem) the states finished.
    Rows { pieces: Vec<(Problem, Piece)> },
}

/// A piece that cannot be made to fit the `budget` bytes of one binding.
fn piece_too_large(what: String, bytes: u64, budget: u64) -> Error {
    Error::TooLarge {
        what,
        bytes,
        limit: budget,
        limit_name: "max_storage_buffer_binding_size, less the window alignment",
    }
}

/// Cuts problem `p` into pieces that each fit one binding (see [`Cut`]), or fails where even
/// the smallest piece would not.
pub(crate) fn plan_cut(p: Problem, i: &CutInput) -> Result<Cut> {
    let (outer, r, inner) = (p.outer as u64, p.r as u64, p.inner as u64);
    let state = i.op.state_bytes();
    if outer * r * inner * i.src_elem <= i.limit && outer * inner * i.out_elem <= i.limit {
        return Ok(Cut::Whole);
    }
    let budget = i.budget;
    let row = inner * i.out_elem.max(state);
    if outer == 1 && inner == 1 && i.simple {
        let unit = (i.align / i.src_elem).max(8);
        let rc = budget / i.src_elem / unit * unit;
        if rc == 0 {
            let what = format!(
                "a piece of {unit} elements of a whole-array {}",
                i.op.name()
            );
            return Err(piece_too_large(what, unit * i.src_elem, budget));
        }
        let pieces: Vec<_> = (0..r)
            .step_by(rc as usize)
            .enumerate()
            .map(|(j, first)| {
                let run = Problem {
                    outer: 1,
                    r: rc.min(r - first) as usize,
                    inner: 1,
                };
                let at = Piece {
                    src_at: first,
                    dst_at: j as u64,
                    ..Piece::default()
                };
                (run, at)
            })
            .collect();
        let runs = pieces.len();
        return Ok(Cut::Runs { pieces, runs });
    }
    let slice = r * inner * i.src_elem;
    if slice <= budget && row <= budget {
        let oc = budget / slice.max(row);
        let pieces = (0..outer)
            .step_by(oc as usize)
            .map(|first| {
                let piece = Problem {
                    outer: oc.min(outer - first) as usize,
                    ..p
                };
                let at = Piece {
                    src_at: first * r * inner,
                    dst_at: first * inner,
                    ..Piece::default()
                };
                (piece, at)
            })
            .collect();
        return Ok(Cut::Slices { pieces });
    }
    let widest = i.src_elem.max(state).max(i.out_elem);
    if inner * widest > budget {
        let values = match (i.x_state, i.op.is_simple()) {
            (false, _) | (true, true) => i.input.name().to_string(),
            (true, false) => format!("{}-byte {} states", state, i.op.name()),
        };
        let what = format!(
            "one row of {inner} {values} values across the reduced axis of a {} (a piece \
             must hold at least one row)",
            i.op.name()
        );
        return Err(piece_too_large(what, inner * widest, budget));
    }
    let rc = budget / (inner * i.src_elem);
    let mut pieces = Vec::new();
    for o in 0..outer {
        for first in (0..r).step_by(rc as usize) {
            let piece = Problem {
                outer: 1,
                r: rc.min(r - first) as usize,
                inner: p.inner,
            };
            let at = Piece {
                src_at: (o * r + first) * inner,
                dst_at: o * inner,
                j_base: first as u32,
                accumulate: first > 0,
            };
            pieces.push((piece, at));
        }
    }
    Ok(Cut::Rows { pieces })
}

/// What the plan of one piece of a problem depends on besides the tuning: the operation, the
/// input element type, whether the array read holds states of an earlier pass, the map (0:
/// none), the piece's problem, whether its first element starts a window that needs no shift
/// for its element size (`aligned`) and for 4-byte elements (`aligned4`), whether its results
/// combine into states already there (`accumulate`), the reduced-axis index of its first row,
/// whether it starts on a whole 16-bit pair, and the bytes one binding may take.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PieceInput {
    pub op: ReduceOp,
    pub input: DType,
    pub x_state: bool,
    pub map: u32,
    pub problem: Problem,
    pub aligned: bool,
    pub aligned4: bool,
    pub accumulate: bool,
    pub j_base: u32,
    pub even: bool,
    pub budget: u64,
}

/// A flat first pass: `groups` workgroups, `lanes` threads per row where there are several
/// rows, each row in `splits` chunks of `chunk` elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FlatPass {
    pub groups: u32,
    pub splits: u32,
    pub chunk: u32,
    pub lanes: u32,
}

/// How one piece of a problem is reduced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PiecePlan {
    /// The whole-array kernel's passes, the first over the piece, each over the values of the
    /// one before; with `last_group` there is one pass, whose last workgroup combines the
    /// others' values (in the context's clean states) and writes the result.
    Whole { passes: Vec<Pass>, last_group: bool },
    /// The flat first pass. `one_pass`: one row whose last workgroup combines the others'
    /// states. `direct`: it writes the piece's results itself (one pass, or rows that each
    /// take one workgroup), `states` of them; else `states` partial states, then `rest` over
    /// them (planned as a piece of its own).
    Flat {
        pass: FlatPass,
        one_pass: bool,
        direct: bool,
        states: u64,
        rest: Option<Problem>,
    },
    /// The general kernel's passes (see [`plan_axis`]).
    Axis(Vec<AxisPass>),
}

/// The shortest rows of a matrix that take the flat first pass (elements).
const FLAT_MIN_ROW: u64 = 64;

/// Vec4 words per thread the flat first pass aims for along rows of a matrix: fewer lanes per
/// row, a shorter tree.
const FLAT_ROW_WORDS: u64 = 16;

/// The plan of one piece: the whole-array kernel for a whole scalar reduction (sum, prod, min,
/// max, mean) that starts a window and combines into nothing; the flat first pass where it
/// applies ([`flat_pass`]); else the general kernel.
pub(crate) fn plan_piece(i: &PieceInput, tuning: &Tuning) -> PiecePlan {
    let p = i.problem;
    let wg = tuning.workgroup_size;
    let state = i.op.state_bytes();
    if p.outer == 1 && p.inner == 1 && i.op.is_simple() && i.map == 0 && i.aligned && !i.accumulate
    {
        let acc = i.op.accumulator(i.input).size_bytes() as u64;
        let fit = (i.budget / acc).min(u64::from(u32::MAX)) as u32;
        let max_groups = tuning.max_workgroups.min(fit);
        let mut passes = plan_passes(p.r as u32, wg, max_groups);
        // Two passes whose second combines at most LOOKBACK_CLEAN_TILES values: one, whose
        // last workgroup combines them (ReduceParams::LAST_GROUP).
        let last_group = tuning.reduce_last_group
            && passes.len() == 2
            && passes[0].groups as usize <= LOOKBACK_CLEAN_TILES;
        if last_group {
            passes.truncate(1);
        }
        return PiecePlan::Whole { passes, last_group };
    }
    if let Some(pass) = flat_pass(i, tuning) {
        let one_pass = p.outer == 1
            && tuning.flat_last_group()
            && pass.groups as usize <= FLAT_LAST_GROUP_MAX_GROUPS;
        let direct = (p.outer > 1 && pass.splits == 1) || one_pass;
        let states = match p.outer {
            _ if one_pass => 1,
            1 => u64::from(pass.groups),
            outer => outer as u64 * u64::from(pass.splits),
        };
        let rest = (!direct).then_some(match p.outer {
            1 => Problem {
                outer: 1,
                r: pass.groups as usize,
                inner: 1,
            },
            outer => Problem {
                outer,
                r: pass.splits as usize,
                inner: 1,
            },
        });
        return PiecePlan::Flat {
            pass,
            one_pass,
            direct,
            states,
            rest,
        };
    }
    // Column pairs read whole words: the piece must start on one.
    let pairs = !i.x_state && i.input.is_half() && i.even && i.op != ReduceOp::Dot && i.map == 0;
    PiecePlan::Axis(plan_axis(
        p,
        wg,
        tuning.target_workgroups,
        i.budget / state,
        pairs,
    ))
}

/// The flat first pass (see [`Layout::Flat`]) for a piece, if it takes one: argmin/argmax,
/// aminmax or (whole arrays only) the 2-norm, nansum, the 1-norm, any, all and count_nonzero
/// of raw f32 input starting on an offset-aligned element (the vec4 loads need no shift),
/// either one long row (at least two workgroups of four vec4 words per thread, striding over
/// it, as many workgroups as the whole-array kernel) or rows of whole vec4 words of at least
/// [`FLAT_MIN_ROW`] elements (about [`FLAT_ROW_WORDS`] words per thread, up to a workgroup per
/// row, long rows cut into `splits` chunks of whole words where they are too few to fill the
/// GPU).
pub(crate) fn flat_pass(i: &PieceInput, tuning: &Tuning) -> Option<FlatPass> {
    let p = i.problem;
    let variant = AxisVariant {
        layout: Layout::Flat,
        op: i.op,
        input: i.input,
        src_state: i.x_state,
        dst_final: false,
        workgroup_size: tuning.workgroup_size,
        map: i.map,
        last_group: false,
    };
    if !variant.flat_capable() || p.inner != 1 || !i.aligned4 {
        return None;
    }
    let wg = u64::from(tuning.workgroup_size);
    let per_group = wg * MIN_VEC4_PER_THREAD * 4;
    let r = p.r as u64;
    if p.outer == 1 {
        let groups = (r / per_group).min(u64::from(tuning.max_workgroups));
        return (groups >= 2).then_some(FlatPass {
            groups: groups as u32,
            splits: 1,
            chunk: p.r as u32,
            lanes: wg as u32,
        });
    }
    // Rows: indices are per row, so a piece must hold whole rows (j_base 0).
    if !variant.flat_along_rows() || !r.is_multiple_of(4) || r < FLAT_MIN_ROW || i.j_base != 0 {
        return None;
    }
    let lanes = (r / 4).div_ceil(FLAT_ROW_WORDS).next_power_of_two().min(wg);
    let (outer, target) = (p.outer as u64, u64::from(tuning.target_workgroups));
    let groups = outer.div_ceil(wg / lanes);
    let mut splits = 1;
    if lanes == wg && groups < target {
        splits = target.div_ceil(groups).min(r / per_group).clamp(1, 65_535);
    }
    // Chunks of whole vec4 words.
    let chunk = r.div_ceil(splits).div_ceil(4) * 4;
    Some(FlatPass {
        groups: groups as u32,
        splits: r.div_ceil(chunk) as u32,
        chunk: chunk as u32,
        lanes: lanes as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_inputs_take_one_pass() {
        assert_eq!(plan_passes(0, 256, 1024), vec![Pass { n: 0, groups: 1 }]);
        assert_eq!(plan_passes(1, 256, 1024), vec![Pass { n: 1, groups: 1 }]);
        assert_eq!(
            plan_passes(4096, 256, 1024),
            vec![Pass { n: 4096, groups: 1 }]
        );
    }

    #[test]
    fn large_inputs_take_two_passes_with_capped_groups() {
        let p = plan_passes(1 << 26, 256, 1024);
        assert_eq!(
            p,
            vec![
                Pass {
                    n: 1 << 26,
                    groups: 1024
                },
                Pass { n: 1024, groups: 1 }
            ]
        );
        let p = plan_passes(4097 * 4, 256, 1024);
        assert_eq!(p[0].groups, 5);
        assert_eq!(p.len(), 2);
    }

    #[test]
    fn many_groups_need_more_passes() {
        // With tiny workgroups and many of them, partials need more than one extra pass.
        let p = plan_passes(u32::MAX, 64, 65535);
        assert!(p.len() >= 3, "{p:?}");
        assert_eq!(p.last().map(|p| p.groups), Some(1));
        for w in p.windows(2) {
            assert_eq!(w[1].n, w[0].groups);
        }
    }

    fn pr(outer: usize, r: usize, inner: usize) -> Problem {
        Problem { outer, r, inner }
    }

    #[test]
    fn shapes_simplify_to_problems() {
        // Whole array, any shape: one row.
        assert_eq!(problems(&[4, 5, 6], &[true; 3]), vec![pr(1, 120, 1)]);
        // Last axis, first axis, middle axis.
        assert_eq!(problems(&[4, 5], &[false, true]), vec![pr(4, 5, 1)]);
        assert_eq!(problems(&[4, 5], &[true, false]), vec![pr(1, 4, 5)]);
        assert_eq!(
            problems(&[4, 5, 6], &[false, true, false]),
            vec![pr(4, 5, 6)]
        );
        // Size-1 dims vanish; adjacent reduced dims merge.
        assert_eq!(
            problems(&[1, 4, 1, 5, 6], &[true, false, true, true, true]),
            vec![pr(4, 30, 1)]
        );
        // Non-adjacent axes: innermost group first, then the next on what is left.
        assert_eq!(
            problems(&[2, 3, 4], &[true, false, true]),
            vec![pr(6, 4, 1), pr(1, 2, 3)]
        );
        // Nothing reduced, and empty reductions.
        assert_eq!(problems(&[3, 4], &[false, false]), vec![pr(12, 1, 1)]);
        assert_eq!(problems(&[3, 0], &[false, true]), vec![pr(3, 0, 1)]);
    }

    #[test]
    fn sixteen_bit_rows_of_even_length_take_whole_words() {
        // 8192 rows of 8192: 64 words a thread, four rows a workgroup, no split.
        let p = plan_axis(pr(8192, 8192, 1), 256, 1024, u64::MAX, true);
        assert_eq!(
            (p.len(), p[0].layout, p[0].lanes, p[0].splits),
            (1, Layout::RowPairs, 64, 1)
        );
        // Odd rows, or input that is not raw 16-bit: one element per load.
        let p = plan_axis(pr(8192, 8191, 1), 256, 1024, u64::MAX, true);
        assert_eq!(p[0].layout, Layout::Rows);
        let p = plan_axis(pr(8192, 8192, 1), 256, 1024, u64::MAX, false);
        assert_eq!(p[0].layout, Layout::Rows);
        // One long row split across workgroups: chunks of whole words, then a pass over the
        // partials (states, one element per load).
        for r in [(1 << 22) + 2, 3 * 1000 * 1000 + 6, 1 << 20] {
            let p = plan_axis(pr(1, r, 1), 256, 1024, u64::MAX, true);
            assert_eq!(p[0].layout, Layout::RowPairs);
            assert!(
                p[0].splits > 1 && p[0].chunk.is_multiple_of(2),
                "{r}: {p:?}"
            );
            assert_eq!(
                u64::from(p[0].splits),
                (r as u64).div_ceil(u64::from(p[0].chunk))
            );
            assert_eq!(p[1].layout, Layout::Rows);
        }
        // Rows of 1024: 64 words a thread (8 threads a row) where the rows fill 1024
        // workgroups of 256 that way, else 32, else 16; one thread for rows of 16; rows of 8
        // or fewer: one thread for four rows.
        for (rows, lanes) in [
            (1 << 16, 8),
            (1 << 15, 8),
            (1 << 14, 16),
            (1 << 13, 32),
            (64, 32),
        ] {
            let p = plan_axis(pr(rows, 1024, 1), 256, 1024, u64::MAX, true);
            assert_eq!(
                (p[0].layout, p[0].lanes),
                (Layout::RowPairs, lanes),
                "{rows}"
            );
        }
        let p = plan_axis(pr(1 << 20, 16, 1), 256, 1024, u64::MAX, true);
        assert_eq!((p[0].layout, p[0].lanes), (Layout::RowPairs, 1));
        let p = plan_axis(pr(1 << 20, 8, 1), 256, 1024, u64::MAX, true);
        assert_eq!(p[0].layout, Layout::RowsWide);
    }

    #[test]
    fn axis_plans_split_long_reductions_and_pack_short_rows() {
        // 3 rows of 2^24: rows layout, split across workgroups, then a pass over the partials.
        let p = plan_axis(pr(3, 1 << 24, 1), 256, 1024, u64::MAX, false);
        assert_eq!(p[0].layout, Layout::Rows);
        assert!(
            p[0].splits > 1 && p[0].tiles_total * p[0].splits >= 1024,
            "{p:?}"
        );
        assert_eq!(p.last().unwrap().splits, 1);
        // 2^24 rows of 3: one thread per four rows, 1024 rows per workgroup, one pass.
        let p = plan_axis(pr(1 << 24, 3, 1), 256, 1024, u64::MAX, false);
        assert_eq!(p.len(), 1);
        assert_eq!(
            (p[0].lanes, p[0].tiles_total, p[0].layout),
            (1, 1 << 14, Layout::RowsWide)
        );
        // 3 x 2^24 over axis 0: wide columns, 1024 per workgroup.
        let p = plan_axis(pr(1, 3, 1 << 24), 256, 1024, u64::MAX, false);
        assert_eq!(
            (p.len(), p[0].tiles_total, p[0].layout),
            (1, 1 << 14, Layout::ColsWide)
        );
        // 2^24 x 3 over axis 0: columns layout, split.
        let p = plan_axis(pr(1, 1 << 24, 3), 256, 1024, u64::MAX, false);
        assert_eq!(p[0].layout, Layout::Cols);
        assert_eq!(p[0].lanes, 4);
        assert!(p[0].splits > 1);
        assert_eq!(p.last().unwrap().splits, 1);
        for w in p.windows(2) {
            assert_eq!(w[1].r, w[0].splits);
        }
        // Every element is covered: chunks times splits reach r.
        for q in [pr(7, 1000, 1), pr(3, 12345, 9), pr(1, 1 << 20, 1)] {
            for pass in plan_axis(q, 128, 100, u64::MAX, false) {
                assert!(u64::from(pass.chunk) * u64::from(pass.splits) >= u64::from(pass.r));
                assert!(u64::from(pass.chunk) * u64::from(pass.splits - 1) < u64::from(pass.r));
            }
        }
    }

    #[test]
    fn segments_plan_threads_from_their_mean_length_and_blocks_for_long_segments() {
        // 2^20 segments of 64: 8 lanes, 32 segments per workgroup, none long.
        let p = plan_segments(1 << 20, 1 << 26, Some(64), 256);
        assert_eq!((p.lanes, p.tiles, p.long, p.blocks), (8, 1 << 15, 4096, 0));
        // 64 segments of 2^20: whole workgroups for none, blocks of 4096 for all.
        let p = plan_segments(64, 1 << 26, Some(1 << 20), 256);
        assert_eq!(
            (p.lanes, p.tiles, p.long, p.blocks),
            (256, 64, 16384, 1 << 14)
        );
        // Many short segments and one long (the skewed layout): 2 lanes a segment, a segment of
        // more than 4096 elements by blocks.
        let p = plan_segments(100_001, (1 << 20) + 150_000, Some(1 << 20), 256);
        assert_eq!((p.lanes, p.long), (2, 4096));
        assert_eq!(p.blocks, ((1u32 << 20) + 150_000).div_ceil(4096));
        // Offsets on the GPU: blocks always, since a segment may be long.
        let p = plan_segments(100, 1000, None, 256);
        assert_eq!((p.lanes, p.tiles, p.blocks), (2, 1, 1));
        // No segments, or empty ones: one tile, no block.
        let p = plan_segments(3, 0, Some(0), 256);
        assert_eq!((p.lanes, p.tiles, p.blocks), (1, 1, 0));
        // No thread walks more than max(64, 4096 / lanes) elements of a short segment.
        for mean in [1u64, 7, 8, 9, 100, 1000, 5000, 1 << 20] {
            let p = plan_segments(1000, 1000 * mean, None, 256);
            assert!(p.long / p.lanes <= 4096, "{p:?}");
            assert!(p.long >= 1 << SEGMENT_BLOCK_SHIFT, "{p:?}");
        }
    }

    fn piece(op: ReduceOp, input: DType, outer: usize, r: usize, inner: usize) -> PieceInput {
        PieceInput {
            op,
            input,
            x_state: false,
            map: 0,
            problem: Problem { outer, r, inner },
            aligned: true,
            aligned4: true,
            accumulate: false,
            j_base: 0,
            even: true,
            budget: 1 << 30,
        }
    }

    #[test]
    fn whole_scalar_arrays_take_the_whole_array_kernel_finishing_in_one_pass() {
        let t = crate::plan::test_tuning();
        // 2^24 f32: 512 workgroups, then their values: one pass whose last workgroup combines.
        let plan = plan_piece(&piece(ReduceOp::Sum, DType::F32, 1, 1 << 24, 1), &t);
        let one = Pass {
            n: 1 << 24,
            groups: 512,
        };
        let want = PiecePlan::Whole {
            passes: vec![one],
            last_group: true,
        };
        assert_eq!(plan, want);
        // Without the one-pass finish: two passes.
        let two = Tuning {
            reduce_last_group: false,
            ..t
        };
        let plan = plan_piece(&piece(ReduceOp::Sum, DType::F32, 1, 1 << 24, 1), &two);
        let passes = vec![one, Pass { n: 512, groups: 1 }];
        let want = PiecePlan::Whole {
            passes,
            last_group: false,
        };
        assert_eq!(plan, want);
        // Small arrays: one pass of one workgroup, no finish needed.
        let plan = plan_piece(&piece(ReduceOp::Max, DType::I32, 1, 1000, 1), &t);
        let want = PiecePlan::Whole {
            passes: vec![Pass { n: 1000, groups: 1 }],
            last_group: false,
        };
        assert_eq!(plan, want);
        // A piece that combines into states, starts off a window, or has a map: the general
        // kernel.
        for i in [
            PieceInput {
                accumulate: true,
                ..piece(ReduceOp::Sum, DType::F32, 1, 1 << 20, 1)
            },
            PieceInput {
                aligned: false,
                ..piece(ReduceOp::Sum, DType::F32, 1, 1 << 20, 1)
            },
            PieceInput {
                map: 7,
                ..piece(ReduceOp::Sum, DType::F32, 1, 1 << 20, 1)
            },
        ] {
            assert!(matches!(plan_piece(&i, &t), PiecePlan::Axis(_)), "{i:?}");
        }
    }

    #[test]
    fn the_flat_pass_finishes_one_row_in_one_pass_and_splits_long_rows() {
        let t = crate::plan::test_tuning();
        // argmax of 2^24 f32: 512 workgroups, the last combining: one state written directly.
        let plan = plan_piece(&piece(ReduceOp::Argmax, DType::F32, 1, 1 << 24, 1), &t);
        let pass = FlatPass {
            groups: 512,
            splits: 1,
            chunk: 1 << 24,
            lanes: 256,
        };
        let want = PiecePlan::Flat {
            pass,
            one_pass: true,
            direct: true,
            states: 1,
            rest: None,
        };
        assert_eq!(plan, want);
        // Without the flat one-pass finish: 512 states, then a piece over them.
        let two = Tuning {
            reduce_last_group_flat: false,
            ..t
        };
        let plan = plan_piece(&piece(ReduceOp::Argmax, DType::F32, 1, 1 << 24, 1), &two);
        let rest = Some(Problem {
            outer: 1,
            r: 512,
            inner: 1,
        });
        let want = PiecePlan::Flat {
            pass,
            one_pass: false,
            direct: false,
            states: 512,
            rest,
        };
        assert_eq!(plan, want);
        // Rows of 4096: 64 lanes (16 words each), 4 rows a workgroup, each row whole.
        let plan = plan_piece(&piece(ReduceOp::Argmin, DType::F32, 4096, 4096, 1), &t);
        let pass = FlatPass {
            groups: 1024,
            splits: 1,
            chunk: 4096,
            lanes: 64,
        };
        let want = PiecePlan::Flat {
            pass,
            one_pass: false,
            direct: true,
            states: 4096,
            rest: None,
        };
        assert_eq!(plan, want);
        // Few long rows: a workgroup a row, each row cut into chunks of whole words, then the
        // chunks' states per row.
        let Some(pass) = flat_pass(&piece(ReduceOp::AMinMax, DType::F32, 4, 1 << 20, 1), &t) else {
            panic!("4 rows of 2^20 take the flat pass")
        };
        assert_eq!((pass.groups, pass.splits, pass.lanes), (4, 256, 256));
        assert_eq!(pass.chunk % 4, 0);
        let plan = plan_piece(&piece(ReduceOp::AMinMax, DType::F32, 4, 1 << 20, 1), &t);
        let PiecePlan::Flat { rest, direct, .. } = plan else {
            panic!("flat")
        };
        assert!(!direct);
        assert_eq!(
            rest,
            Some(Problem {
                outer: 4,
                r: 256,
                inner: 1
            })
        );
        // Not flat: f16 input, rows not of whole words or too short, other operations along
        // rows, pieces that start inside a row or off a window.
        for i in [
            piece(ReduceOp::Argmax, DType::F16, 1, 1 << 20, 1),
            piece(ReduceOp::Argmax, DType::F32, 100, 1022, 1),
            piece(ReduceOp::Argmax, DType::F32, 100, 60, 1),
            piece(ReduceOp::Norm2, DType::F32, 100, 4096, 1),
            PieceInput {
                j_base: 4096,
                ..piece(ReduceOp::Argmax, DType::F32, 100, 4096, 1)
            },
            PieceInput {
                aligned4: false,
                ..piece(ReduceOp::Argmax, DType::F32, 1, 1 << 20, 1)
            },
        ] {
            assert_eq!(flat_pass(&i, &t), None, "{i:?}");
        }
        // The 2-norm of a whole array takes it.
        assert!(flat_pass(&piece(ReduceOp::Norm2, DType::F32, 1, 1 << 20, 1), &t).is_some());
    }

    #[test]
    fn the_general_kernel_takes_column_pairs_only_for_raw_16_bit_input_on_whole_words() {
        let t = crate::plan::test_tuning();
        let layout = |i: PieceInput| match plan_piece(&i, &t) {
            PiecePlan::Axis(passes) => passes[0].layout,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            layout(piece(ReduceOp::Sum, DType::F16, 64, 64, 4096)),
            Layout::ColPairs
        );
        assert_eq!(
            layout(piece(ReduceOp::Sum, DType::F32, 64, 64, 4096)),
            Layout::Cols
        );
        let odd = PieceInput {
            even: false,
            ..piece(ReduceOp::Sum, DType::F16, 64, 64, 4096)
        };
        assert_eq!(layout(odd), Layout::Cols);
        let states = PieceInput {
            x_state: true,
            ..piece(ReduceOp::Sum, DType::F16, 64, 64, 4096)
        };
        assert_eq!(layout(states), Layout::Cols);
    }

    fn cut_input(op: ReduceOp, limit: u64) -> CutInput {
        CutInput {
            op,
            input: DType::F32,
            x_state: false,
            simple: op.is_simple(),
            src_elem: 4,
            out_elem: 4,
            limit,
            budget: limit - 64,
            align: 16,
        }
    }

    #[test]
    fn problems_larger_than_a_binding_are_cut_into_pieces_that_fit() {
        let kib = cut_input(ReduceOp::Sum, 1024);
        // 256 f32 fit a binding of 1 KiB.
        assert_eq!(plan_cut(pr(1, 256, 1), &kib).unwrap(), Cut::Whole);
        // A whole array of 1000: runs of 240 elements (960 of the 960 bytes a piece may take,
        // whole units of 8), each to one value, then the 5 values.
        let Cut::Runs { pieces, runs } = plan_cut(pr(1, 1000, 1), &kib).unwrap() else {
            panic!("runs")
        };
        assert_eq!(runs, 5);
        let starts: Vec<u64> = pieces.iter().map(|(_, at)| at.src_at).collect();
        assert_eq!(starts, vec![0, 240, 480, 720, 960]);
        assert_eq!(pieces[4].0, pr(1, 40, 1));
        assert_eq!(pieces[4].1.dst_at, 4);
        // 100 rows of 100: whole slices, 2 rows (800 bytes) a piece, written in place.
        let Cut::Slices { pieces } = plan_cut(pr(100, 100, 1), &kib).unwrap() else {
            panic!("slices")
        };
        assert_eq!(pieces.len(), 50);
        assert_eq!(
            pieces[1],
            (
                pr(2, 100, 1),
                Piece {
                    src_at: 200,
                    dst_at: 2,
                    ..Piece::default()
                }
            )
        );
        // 3 slices of 1000 x 2 (8000 bytes each): runs of 120 rows of the reduced axis, the
        // later ones combining into the states of their outputs.
        let var = cut_input(ReduceOp::Var, 1024);
        let Cut::Rows { pieces } = plan_cut(pr(3, 1000, 2), &var).unwrap() else {
            panic!("rows")
        };
        assert_eq!(pieces.len(), 3 * 9);
        let second = Piece {
            src_at: 240,
            dst_at: 0,
            j_base: 120,
            accumulate: true,
        };
        assert_eq!(pieces[1], (pr(1, 120, 2), second));
        let next_slice = Piece {
            src_at: 2000,
            dst_at: 2,
            j_base: 0,
            accumulate: false,
        };
        assert_eq!(pieces[9], (pr(1, 120, 2), next_slice));
        let rows: usize = pieces.iter().map(|(p, _)| p.r).sum();
        assert_eq!(rows, 3 * 1000, "every row of every slice, once");
    }

    #[test]
    fn a_piece_that_cannot_fit_is_an_error_naming_what() {
        // One row across the reduced axis of 300 var states (12 bytes each) in 960 bytes.
        let var = CutInput {
            x_state: true,
            ..cut_input(ReduceOp::Var, 1024)
        };
        let e = plan_cut(pr(2, 1000, 300), &var).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("12-byte var states"), "{msg}");
        assert!(
            matches!(
                e,
                Error::TooLarge {
                    bytes: 3600,
                    limit: 960,
                    ..
                }
            ),
            "{e:?}"
        );
        // Runs need at least one unit of elements.
        let tiny = CutInput {
            budget: 16,
            ..cut_input(ReduceOp::Sum, 80)
        };
        assert!(matches!(
            plan_cut(pr(1, 1000, 1), &tiny),
            Err(Error::TooLarge { bytes: 32, .. })
        ));
    }
}
