//! Planning one problem `[outer, r, inner]` of a reduction piece by piece: where it is cut so
//! that each piece fits one storage binding ([`plan_cut`]), and how each piece is reduced
//! ([`plan_piece`]: the whole-array kernel, the flat first pass, or the general kernel's
//! passes). Pure functions, tested without a device.

use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::{AxisVariant, Layout, FLAT_LAST_GROUP_MAX_GROUPS, LOOKBACK_CLEAN_TILES};
use crate::ops::ReduceOp;
use crate::plan::reduce::{plan_axis, plan_passes, AxisPass, Pass, Problem, MIN_VEC4_PER_THREAD};
use crate::plan::tuning::Tuning;

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

    fn pr(outer: usize, r: usize, inner: usize) -> Problem {
        Problem { outer, r, inner }
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
