//! Recording a reduction: the checks, the problems and passes `plan` chooses, pieces of
//! problems too large for one storage binding, and each pass as a kernel variant with typed
//! parameters pushed to the recorder.

use super::Recorder;
use crate::array::RawArray;
use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::params::{AxisParams, PackParams, ReduceParams};
use crate::kernels::{AxisVariant, Kernel, Layout, PackVariant, ReduceVariant};
use crate::ops::{ReduceOp, Reduction};
use crate::plan::pieces::{plan_cut, plan_piece, Cut, CutInput, Piece, PieceInput, PiecePlan};
use crate::plan::reduce::{problems, sizes, Problem};

/// Reads of a published workgroup value that is not visible yet before the last workgroup
/// computes it again (ReduceParams::LAST_GROUP). Every other workgroup has published its value
/// before it counted itself done, so a value not yet seen is on its way.
const LAST_GROUP_SPIN_LIMIT: u32 = 64;

/// What every piece of one problem shares: the operation, the input element type, the array
/// read and whether it holds states, whether this problem writes the final results, and the
/// finishing parameters (mean's divisor, var/std's correction).
#[derive(Clone, Copy)]
struct Frame<'a> {
    op: ReduceOp,
    input: DType,
    x: &'a RawArray,
    x_state: bool,
    final_problem: bool,
    divisor: f32,
    correction: u32,
    /// The p-norm's p.
    p: f32,
    /// A dot product's second input (read with `x` while `x` is the input).
    second: Option<&'a RawArray>,
    /// The map a first pass applies ([`Map::id`](crate::Map::id)), or 0.
    map: u32,
}

impl Frame<'_> {
    /// Bytes of one element of `x`.
    fn src_elem(&self) -> u64 {
        match self.x_state {
            true => self.op.state_bytes(),
            false => self.input.size_bytes() as u64,
        }
    }

    /// Bytes of one value this problem writes (a result, or a state).
    fn out_elem(&self) -> u64 {
        match self.final_problem {
            true => (self.op.output(self.input).size_bytes() * self.op.values_per_result()) as u64,
            false => self.op.state_bytes(),
        }
    }

    /// The same frame writing states (for the pieces of a problem that are combined later).
    fn states_out(&self) -> Self {
        Frame {
            final_problem: false,
            ..*self
        }
    }

    /// The same frame reading `states` (written by its pieces) instead of its input.
    fn reading_states<'b>(&self, states: &'b RawArray) -> Frame<'b> {
        Frame {
            x: states,
            x_state: true,
            op: self.op,
            input: self.input,
            final_problem: self.final_problem,
            divisor: self.divisor,
            correction: self.correction,
            p: self.p,
            second: None,
            map: 0,
        }
    }
}

/// `output` must be one of `op`'s result types for `input`.
pub(super) fn check_output(op: ReduceOp, input: DType, output: DType) -> Result<()> {
    let allowed = op.allowed_outputs(input);
    if allowed.contains(&output) {
        return Ok(());
    }
    Err(Error::UnsupportedOutput {
        op: op.name(),
        input,
        output,
        allowed: allowed
            .iter()
            .map(|d| d.name())
            .collect::<Vec<_>>()
            .join(", "),
    })
}

impl Recorder {
    /// Records `red` over `x` (of `shape`) into `out`, checking everything first.
    pub(crate) fn record_reduction(
        &mut self,
        red: &Reduction,
        x: &RawArray,
        shape: &[usize],
        out: &RawArray,
    ) -> Result<()> {
        if red.op == ReduceOp::Dot {
            return Err(Error::InvalidUse(
                "dot takes two inputs: record it with Recorder::dot or Recorder::dot_axes".into(),
            ));
        }
        self.record_reduction_of(red, x, None, shape, out)
    }

    /// Records `red` over `x` (and, for a dot product, `second`, of the same shape and type).
    pub(crate) fn record_reduction_of(
        &mut self,
        red: &Reduction,
        x: &RawArray,
        second: Option<&RawArray>,
        shape: &[usize],
        out: &RawArray,
    ) -> Result<()> {
        self.check_ctx(x, "the input array")?;
        self.check_ctx(out, "the output array")?;
        if let Some(b) = second {
            self.check_ctx(b, "the second input array")?;
        }
        if !red.op.accepts(x.dtype) {
            return Err(Error::UnsupportedInput {
                op: red.op.name(),
                input: x.dtype,
                allowed: "f32, f16, bf16 (vector norms are defined for floats, as in PyTorch)"
                    .into(),
            });
        }
        if red.op == ReduceOp::NormP {
            ReduceOp::norm(red.p)?;
        }
        let op = red.op.for_input(x.dtype);
        let map = match &red.map {
            None => 0,
            Some(_) if op == ReduceOp::Dot => {
                return Err(Error::InvalidUse(
                    "a map applies to reductions of one input, not to a dot product".into(),
                ))
            }
            Some(_) if !x.dtype.is_float() => {
                return Err(Error::UnsupportedInput {
                    op: op.name(),
                    input: x.dtype,
                    allowed: "f32, f16, bf16 (a map takes and returns f32)".into(),
                })
            }
            Some(m) => m.id(),
        };
        check_output(op, x.dtype, out.dtype)?;
        let mask = red.reduced_mask(shape)?;
        let (positions, r_total) = sizes(shape, &mask);
        let out_len = positions * op.values_per_result();
        if out.len != out_len {
            let out_shape = red.shape_for_mask(shape, &mask);
            return Err(Error::InvalidUse(format!(
                "{} of shape {shape:?} gives shape {out_shape:?} ({out_len} elements); the \
                 output array has {} elements",
                op.name(),
                out.len
            )));
        }
        if out_len == 0 {
            return Ok(());
        }
        if r_total == 0 && !op.has_identity() {
            return Err(Error::EmptyInput { op: op.name() });
        }
        let kernel_out = op.output(x.dtype);
        let final_dst = if out.dtype == kernel_out {
            out.clone()
        } else {
            self.lease_temporary(out_len, kernel_out)?
        };
        let problems = problems(shape, &mask);
        let mut src = x.clone();
        let mut src_state = false;
        for (i, p) in problems.iter().enumerate() {
            let last = i + 1 == problems.len();
            let dst = if last {
                final_dst.clone()
            } else {
                self.state_array(op, x.dtype, p.outer * p.inner)?
            };
            let f = Frame {
                op,
                input: x.dtype,
                x: &src,
                x_state: src_state,
                final_problem: last,
                divisor: r_total as f32,
                correction: red.correction,
                p: red.p,
                second: if src_state { None } else { second },
                map: if src_state { 0 } else { map },
            };
            self.record_problem(&f, *p, &dst)?;
            src = dst;
            src_state = true;
        }
        if out.dtype != kernel_out {
            self.record_pack(&final_dst, out)?;
        }
        Ok(())
    }

    /// An array for `count` partial states of `op` over `input`.
    pub(super) fn state_array(
        &mut self,
        op: ReduceOp,
        input: DType,
        count: usize,
    ) -> Result<RawArray> {
        if op.is_simple() {
            self.lease_temporary(count, op.accumulator(input))
        } else {
            self.lease_temporary(count * (op.state_bytes() / 4) as usize, DType::U32)
        }
    }

    /// Records problem `p` of frame `f` into `final_dst`, cut into pieces that each fit one
    /// storage binding where it does not (see [`Cut`]).
    fn record_problem(&mut self, f: &Frame<'_>, p: Problem, final_dst: &RawArray) -> Result<()> {
        let cut = CutInput {
            op: f.op,
            input: f.input,
            x_state: f.x_state,
            simple: f.op.is_simple() && f.map == 0,
            src_elem: f.src_elem(),
            out_elem: f.out_elem(),
            limit: self.binding_limit(),
            budget: self.piece_budget(),
            align: self.offset_alignment_bytes(),
        };
        match plan_cut(p, &cut)? {
            Cut::Whole => self.record_piece(f, p, final_dst, Piece::default()),
            Cut::Runs { pieces, runs } => {
                let states = self.lease_temporary(runs, f.op.accumulator(f.input))?;
                for (run, at) in pieces {
                    self.record_piece(&f.states_out(), run, &states, at)?;
                }
                let rest = Problem {
                    outer: 1,
                    r: runs,
                    inner: 1,
                };
                self.record_problem(&f.reading_states(&states), rest, final_dst)
            }
            Cut::Slices { pieces } => {
                for (piece, at) in pieces {
                    self.record_piece(f, piece, final_dst, at)?;
                }
                Ok(())
            }
            Cut::Rows { pieces } => {
                let outputs = p.outer * p.inner;
                let states = if f.final_problem {
                    self.state_array(f.op, f.input, outputs)?
                } else {
                    final_dst.clone()
                };
                for (piece, at) in pieces {
                    self.record_piece(&f.states_out(), piece, &states, at)?;
                }
                if !f.final_problem {
                    return Ok(());
                }
                let each = Problem {
                    outer: outputs,
                    r: 1,
                    inner: 1,
                };
                self.record_problem(&f.reading_states(&states), each, final_dst)
            }
        }
    }

    /// Records one piece of a problem: `p` read from element `at.src_at` of `f.x`, written
    /// from element (or state) `at.dst_at` of `final_dst`.
    fn record_piece(
        &mut self,
        f: &Frame<'_>,
        p: Problem,
        final_dst: &RawArray,
        at: Piece,
    ) -> Result<()> {
        let Frame {
            op,
            input,
            x,
            x_state,
            final_problem,
            divisor,
            correction,
            p: _,
            second,
            map,
        } = *f;
        let tuning = self.ctx().tuning();
        let wg = tuning.workgroup_size;
        let src_elem = f.src_elem();
        let out_elem = f.out_elem();
        let align = self.offset_alignment_bytes();
        let piece = PieceInput {
            op,
            input,
            x_state,
            map,
            problem: p,
            aligned: (at.src_at * src_elem).is_multiple_of(align),
            aligned4: (at.src_at * 4).is_multiple_of(align),
            accumulate: at.accumulate,
            j_base: at.j_base,
            // Windows start on whole words, so the element offset inside the window has the
            // parity of src_at.
            even: at.src_at.is_multiple_of(2),
            budget: self.piece_budget(),
        };
        let plan = plan_piece(&piece, &tuning);
        if let PiecePlan::Whole { passes, last_group } = plan {
            // Whole-array kernel; states of scalar ops are plain accumulator values.
            let acc = op.accumulator(input);
            let acc_bytes = acc.size_bytes() as u64;
            let mut src = x.clone();
            let mut src_dtype = if x_state { acc } else { input };
            for (i, pass) in passes.iter().enumerate() {
                let last = i + 1 == passes.len();
                let dst = if last {
                    final_dst.clone()
                } else {
                    self.lease_temporary(pass.groups as usize, acc)?
                };
                let from = if i == 0 { at.src_at } else { 0 };
                let elem = src_dtype.size_bytes() as u64;
                let (src_window, base) = self.window(from, u64::from(pass.n), elem);
                // Pieces start on offset-aligned elements: the vec4 loads need no shift.
                debug_assert_eq!(base, 0);
                let outputs = if last_group { 1 } else { pass.groups };
                let (dst_window, dst_base) = match last {
                    true => self.window(at.dst_at, u64::from(outputs), acc_bytes),
                    false => self.window(0, u64::from(outputs), acc_bytes),
                };
                let epv = if src_dtype.is_half() { 8 } else { 4 };
                let mut flags = 0;
                for (on, flag) in [
                    (last && final_problem, ReduceParams::FINAL),
                    (last_group, ReduceParams::LAST_GROUP),
                    (
                        last_group && self.ctx.inner.testing.hide_partials,
                        ReduceParams::HIDE_PARTIALS,
                    ),
                ] {
                    if on {
                        flags |= flag;
                    }
                }
                let params = ReduceParams {
                    n: pass.n,
                    n_vec: pass.n / epv,
                    num_groups: pass.groups,
                    flags,
                    divisor,
                    dst_base,
                    spin_limit: LAST_GROUP_SPIN_LIMIT,
                    ..Default::default()
                };
                let kernel = Kernel::Reduce(ReduceVariant {
                    input: src_dtype,
                    op,
                    workgroup_size: wg,
                    subgroups: tuning.subgroups,
                });
                let (bind_src, bind_dst) = ((&src, src_window), (&dst, dst_window));
                let states = last_group.then(|| self.clean_states());
                let grid = (pass.groups, 1);
                self.push_windowed(kernel, bind_src, bind_dst, states.as_ref(), params, grid)?;
                src = dst;
                src_dtype = acc;
            }
            return Ok(());
        }
        let state = op.state_bytes();
        if let PiecePlan::Flat {
            pass: flat,
            one_pass,
            direct,
            states: states_n,
            rest,
        } = plan
        {
            // Argmin/argmax or aminmax of f32 rows: a flat first pass to one state per workgroup
            // (indices include at.j_base), then those states as below; rows that each take
            // one workgroup write their results (or states) where the general pass would. One
            // row may take one pass, whose last workgroup combines the others' states
            // (AxisVariant::last_group, in the context's clean states).
            // A piece's results start where its window does only when dst_at is
            // offset-aligned: the kernel writes from dst_base inside the window.
            let (dst, (dst_window, dst_base)) = match direct {
                true => (
                    final_dst.clone(),
                    self.window(at.dst_at, states_n, out_elem),
                ),
                false => (
                    self.state_array(op, input, states_n as usize)?,
                    self.window(0, states_n, state),
                ),
            };
            let (src_window, _) = self.window(at.src_at, p.outer as u64 * p.r as u64, 4);
            let (gx, _) = self.grid(flat.groups)?;
            let dst_final = direct && final_problem;
            let mut flags = 0;
            for (on, flag) in [
                (dst_final, AxisParams::FINAL),
                (direct && at.accumulate, AxisParams::ACCUMULATE),
                (
                    one_pass && self.ctx.inner.testing.hide_partials,
                    AxisParams::HIDE_PARTIALS,
                ),
            ] {
                if on {
                    flags |= flag;
                }
            }
            let params = AxisParams {
                outer: p.outer as u32,
                r: p.r as u32,
                inner: 1,
                splits: flat.splits,
                chunk: flat.chunk,
                tiles: 1,
                lanes_shift: flat.lanes.trailing_zeros(),
                groups: flat.groups,
                groups_x: gx,
                flags,
                dst_base,
                j_base: at.j_base,
                ..Default::default()
            };
            let kernel = AxisVariant {
                layout: Layout::Flat,
                op,
                input,
                src_state: false,
                dst_final,
                workgroup_size: wg,
                map: 0,
                last_group: one_pass,
            };
            let (bind_src, bind_dst) = ((x, src_window), (&dst, dst_window));
            let states = one_pass.then(|| self.clean_states());
            self.push_windowed(
                Kernel::Axis(kernel),
                bind_src,
                bind_dst,
                states.as_ref(),
                params,
                (flat.groups, flat.splits),
            )?;
            let Some(rest) = rest else {
                return Ok(());
            };
            let at = Piece {
                dst_at: at.dst_at,
                accumulate: at.accumulate,
                ..Piece::default()
            };
            return self.record_piece(&f.reading_states(&dst), rest, final_dst, at);
        }
        let PiecePlan::Axis(passes) = plan else {
            unreachable!("the other plans returned above")
        };
        let mut src = x.clone();
        let mut src_state = x_state;
        for (i, pass) in passes.iter().enumerate() {
            let (first, last) = (i == 0, i + 1 == passes.len());
            let dst_final = last && final_problem;
            let outputs = u64::from(pass.outer) * u64::from(pass.splits) * u64::from(pass.inner);
            let dst = if last {
                final_dst.clone()
            } else {
                self.state_array(op, input, outputs as usize)?
            };
            let kernel = AxisVariant {
                layout: pass.layout,
                op,
                input,
                src_state,
                dst_final,
                workgroup_size: wg,
                map: if src_state { 0 } else { map },
                last_group: false,
            }
            .canonical();
            let elems = u64::from(pass.outer) * u64::from(pass.r) * u64::from(pass.inner);
            let (src_window, src_base) = match first {
                true => self.window(at.src_at, elems, src_elem),
                false => self.window(0, elems, state),
            };
            let (dst_window, dst_base) = match last {
                true => self.window(at.dst_at, outputs, out_elem),
                false => self.window(0, outputs, state),
            };
            let accumulate = last && at.accumulate;
            let (gx, _) = self.grid(pass.tiles_total)?;
            let mut flags = 0;
            if dst_final {
                flags |= AxisParams::FINAL;
            }
            if accumulate {
                flags |= AxisParams::ACCUMULATE;
            }
            let params = AxisParams {
                outer: pass.outer,
                r: pass.r,
                inner: pass.inner,
                splits: pass.splits,
                chunk: pass.chunk,
                tiles: pass.tiles,
                lanes_shift: pass.lanes.trailing_zeros(),
                groups: pass.tiles_total,
                groups_x: gx,
                flags,
                divisor,
                correction: correction as f32,
                src_base,
                dst_base,
                j_base: if first { at.j_base } else { 0 },
                power: f.p,
            };
            let grid = (pass.tiles_total, pass.splits);
            let (bind_src, bind_dst) = ((&src, src_window), (&dst, dst_window));
            self.push_windowed(Kernel::Axis(kernel), bind_src, bind_dst, None, params, grid)?;
            if let (Some(b), false) = (second, src_state) {
                let window = self.window(at.src_at, elems, src_elem).0;
                self.bind_second(b, window);
            }
            src = dst;
            src_state = true;
        }
        Ok(())
    }

    /// Converts the f32 values of `src` into the 16-bit array `out`, in pieces that fit a
    /// binding (each a whole number of offset-aligned words).
    pub(super) fn record_pack(&mut self, src: &RawArray, out: &RawArray) -> Result<()> {
        let words = out.len.div_ceil(2) as u64;
        let unit = self.offset_alignment_bytes();
        let per_piece = (self.piece_budget() / 8 / unit * unit).max(unit);
        let kernel = Kernel::Pack(PackVariant { output: out.dtype });
        for first in (0..words).step_by(per_piece as usize) {
            let piece_words = per_piece.min(words - first);
            let elems = (out.len as u64 - 2 * first).min(2 * piece_words);
            let (src_window, _) = self.window(2 * first, elems, 4);
            let (dst_window, _) = self.window(first, piece_words, 4);
            let groups = piece_words.div_ceil(256).max(1) as u32;
            let (gx, _) = self.grid(groups)?;
            let params = PackParams {
                n: elems as u32,
                groups_x: gx,
                ..Default::default()
            };
            let (bind_src, bind_dst) = ((src, src_window), (out, dst_window));
            self.push_windowed(kernel, bind_src, bind_dst, None, params, (groups, 1))?;
        }
        Ok(())
    }
}
