//! Whole-array reductions: sum, prod, min, max, mean.
//!
//! A reduction is planned as passes ([`plan_passes`]): the first pass has up to
//! `max_workgroups` workgroups, each thread reading many elements (vec4 loads, four
//! accumulators) into one partial per workgroup; each later pass reduces the partials of the
//! one before, until one workgroup writes the result. All passes are recorded into one
//! [`Recorder`] and run without host synchronisation between them.

use crate::array::{GpuArray, RawArray};
use crate::context::Context;
use crate::element::{DType, Element};
use crate::error::{Error, Result};
use crate::kernels::ReduceVariant;
use crate::recorder::Recorder;

/// A whole-array reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ReduceOp {
    /// Sum. Floats accumulate in f32 in tree order; integers wrap modulo 2^32.
    Sum,
    /// Product. Integers wrap modulo 2^32.
    Prod,
    /// Minimum. A NaN anywhere makes the result NaN.
    Min,
    /// Maximum. A NaN anywhere makes the result NaN.
    Max,
    /// Arithmetic mean, accumulated and returned in f32 for every input type.
    Mean,
}

impl ReduceOp {
    /// Every reduction, in a fixed order.
    pub const ALL: [ReduceOp; 5] = [
        ReduceOp::Sum,
        ReduceOp::Prod,
        ReduceOp::Min,
        ReduceOp::Max,
        ReduceOp::Mean,
    ];

    /// Lower-case name (`sum`, `prod`, `min`, `max`, `mean`).
    pub const fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Min => "min",
            ReduceOp::Max => "max",
            ReduceOp::Mean => "mean",
        }
    }

    /// Parses a name such as `sum`.
    pub fn parse(s: &str) -> Option<ReduceOp> {
        ReduceOp::ALL.into_iter().find(|op| op.name() == s)
    }

    /// Whether the reduction of an empty array is defined (sum → 0, prod → 1).
    pub const fn has_identity(self) -> bool {
        matches!(self, ReduceOp::Sum | ReduceOp::Prod)
    }

    /// Type the kernel accumulates in for `input`.
    pub const fn accumulator(self, input: DType) -> DType {
        match self {
            ReduceOp::Mean => DType::F32,
            _ => input,
        }
    }

    /// Type of the result for `input` (the same as the accumulator).
    pub const fn output(self, input: DType) -> DType {
        self.accumulator(input)
    }
}

/// One pass of a planned reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pass {
    /// Elements this pass reads.
    pub n: u32,
    /// Workgroups it runs (and values it writes).
    pub groups: u32,
}

/// Vec4 words each thread of a first pass reads at least, before more workgroups are added.
const MIN_VEC4_PER_THREAD: u64 = 4;

/// Plans the passes that reduce `n` elements to one value.
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

impl Recorder {
    /// Records `op` over all of `x` into the 1-element array `out`.
    pub(crate) fn record_reduce(
        &mut self,
        op: ReduceOp,
        x: &RawArray,
        out: &RawArray,
    ) -> Result<()> {
        self.check_ctx(x, "the input array")?;
        self.check_ctx(out, "the output array")?;
        let out_dtype = op.output(x.dtype);
        if out.dtype != out_dtype || out.len != 1 {
            return Err(Error::InvalidUse(format!(
                "{} of a {} array writes one {} element; the output array has {} {} elements",
                op.name(),
                x.dtype,
                out_dtype,
                out.len,
                out.dtype
            )));
        }
        if x.len == 0 && !op.has_identity() {
            return Err(Error::EmptyInput { op: op.name() });
        }
        let ctx = self.ctx().clone();
        ctx.check_array_size(x.len, x.dtype)?;
        let tuning = ctx.tuning();
        let passes = plan_passes(x.len as u32, tuning.workgroup_size, tuning.max_workgroups);
        let acc = op.accumulator(x.dtype);
        let divisor = x.len as f32;
        let mut src = x.clone();
        for (i, pass) in passes.iter().enumerate() {
            let last = i + 1 == passes.len();
            let dst = if last {
                out.clone()
            } else {
                self.lease_temporary(pass.groups as usize, acc)?
            };
            let variant = ReduceVariant {
                input: src.dtype,
                op,
                workgroup_size: tuning.workgroup_size,
                subgroups: tuning.subgroups,
            };
            let params = [
                pass.n,
                pass.n / 4,
                pass.groups,
                u32::from(last),
                divisor.to_bits(),
                0,
                0,
                0,
            ];
            self.push_dispatch(variant, &src, &dst, params, pass.groups)?;
            src = dst;
        }
        Ok(())
    }

    fn reduce_new<T: Element, O: Element>(
        &mut self,
        op: ReduceOp,
        x: &GpuArray<T>,
    ) -> Result<GpuArray<O>> {
        debug_assert_eq!(O::DTYPE, op.output(T::DTYPE));
        let out = self.lease_result::<O>()?;
        self.record_reduce(op, &x.raw(), &out.raw())?;
        Ok(out)
    }

    /// Records the sum of all elements. The result stays on the GPU as a 0-d array.
    ///
    /// Floats are summed in f32 (pairwise/tree order: see the crate docs for the error bound);
    /// integers wrap modulo 2^32. The sum of an empty array is 0.
    pub fn sum<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.reduce_new(ReduceOp::Sum, x)
    }

    /// Records the product of all elements (1 for an empty array; integers wrap).
    pub fn prod<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.reduce_new(ReduceOp::Prod, x)
    }

    /// Records the minimum (NaN if any element is NaN; [`Error::EmptyInput`] if empty).
    pub fn min<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.reduce_new(ReduceOp::Min, x)
    }

    /// Records the maximum (NaN if any element is NaN; [`Error::EmptyInput`] if empty).
    pub fn max<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T>> {
        self.reduce_new(ReduceOp::Max, x)
    }

    /// Records the mean, accumulated and returned in f32 for every input type
    /// ([`Error::EmptyInput`] if empty).
    pub fn mean<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<f32>> {
        self.reduce_new(ReduceOp::Mean, x)
    }

    /// Records `op` over `x` into `out`, a caller's array of one element whose type is the
    /// op's output type (`f32` for mean, else `T`).
    pub fn reduce_into<T: Element, O: Element>(
        &mut self,
        op: ReduceOp,
        x: &GpuArray<T>,
        out: &GpuArray<O>,
    ) -> Result<()> {
        self.record_reduce(op, &x.raw(), &out.raw())
    }
}

impl Context {
    fn reduce_scalar<T: Element, O: Element>(&self, op: ReduceOp, x: &GpuArray<T>) -> Result<O> {
        let mut rec = self.recorder();
        let out = rec.reduce_new::<T, O>(op, x)?;
        let token = rec.read(&out)?;
        rec.submit()?.wait()?.scalar(&token)
    }

    /// Sum of all elements, blocking (one submission, one readback). See [`Recorder::sum`].
    pub fn sum<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        self.reduce_scalar(ReduceOp::Sum, x)
    }

    /// Product of all elements, blocking. See [`Recorder::prod`].
    pub fn prod<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        self.reduce_scalar(ReduceOp::Prod, x)
    }

    /// Minimum, blocking. See [`Recorder::min`].
    pub fn min<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        self.reduce_scalar(ReduceOp::Min, x)
    }

    /// Maximum, blocking. See [`Recorder::max`].
    pub fn max<T: Element>(&self, x: &GpuArray<T>) -> Result<T> {
        self.reduce_scalar(ReduceOp::Max, x)
    }

    /// Mean in f32, blocking. See [`Recorder::mean`].
    pub fn mean<T: Element>(&self, x: &GpuArray<T>) -> Result<f32> {
        self.reduce_scalar(ReduceOp::Mean, x)
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
}
