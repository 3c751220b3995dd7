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

use crate::kernels::Layout;

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
}
