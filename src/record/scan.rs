//! Recording a scan: the checks, the algorithm, then the plan (`plan::scan::plan_scan`) encoded.

use super::{Dispatch, Recorder};
use crate::array::{padded_bytes, RawArray, Storage};
use crate::context::Context;
use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::{Kernel, CLEAN_STATE_WORDS};
use crate::ops::{Scan, ScanAlgorithm};
use crate::plan::scan::{auto_algorithm, plan_scan};
use crate::plan::scan::{ScanBuf, ScanInput, ScanPlan, ScanStep};
use std::sync::Arc;

impl Context {
    pub(crate) fn auto_scan_algorithm(
        &self,
        rows: usize,
        len: usize,
        output_waits: bool,
    ) -> ScanAlgorithm {
        let lookback_backend = matches!(
            self.capabilities().adapter.backend,
            wgpu::Backend::Vulkan | wgpu::Backend::Metal | wgpu::Backend::Dx12
        );
        auto_algorithm(rows, len, lookback_backend, output_waits, &self.tuning())
    }
}

impl Recorder {
    /// Whether a dispatch recorded so far used `out`'s buffer while none wrote `x`'s, for a
    /// scan of one row (the only scans whose algorithm depends on it; the others are not
    /// looked up), on Vulkan or DX12 (on Metal every dispatch of a pass runs after the one
    /// before it, so no first pass runs beside earlier work).
    pub(crate) fn output_waits(&self, x: &RawArray, out: &RawArray, rows: usize) -> bool {
        let ctx = self.ctx();
        let beside = matches!(
            ctx.capabilities().adapter.backend,
            wgpu::Backend::Vulkan | wgpu::Backend::Dx12
        );
        if !beside || rows != 1 {
            return false;
        }
        fn written(d: &Dispatch) -> impl Iterator<Item = &wgpu::Buffer> {
            d.aux.iter().chain([&d.dst]).map(RawArray::buffer)
        }
        fn used(d: &Dispatch) -> impl Iterator<Item = &wgpu::Buffer> {
            let read = d.second.iter().map(|(a, _)| a).chain([&d.src]);
            written(d).chain(read.map(RawArray::buffer))
        }
        let x_written = (self.dispatches.iter()).any(|d| written(d).any(|b| b == x.buffer()));
        let out_used = (self.dispatches.iter()).any(|d| used(d).any(|b| b == out.buffer()));
        out_used && !x_written
    }

    pub(crate) fn record_scan(
        &mut self,
        scan: &Scan,
        x: &RawArray,
        shape: &[usize],
        out: &RawArray,
    ) -> Result<()> {
        self.check_ctx(x, "the input array")?;
        self.check_ctx(out, "the output array")?;
        let want = scan.op.output(x.dtype);
        if out.dtype != want {
            return Err(Error::UnsupportedOutput {
                op: scan.name(),
                input: x.dtype,
                output: out.dtype,
                allowed: want.name().to_string(),
            });
        }
        let (rows, len) = scan.rows(shape)?;
        if out.len != x.len {
            return Err(Error::InvalidUse(format!(
                "a scan of shape {shape:?} gives {} elements; the output array has {}",
                x.len, out.len
            )));
        }
        if x.buffer() == out.buffer() {
            return Err(Error::InvalidUse(
                "scans are not in place: the output must be a different array from the input"
                    .into(),
            ));
        }
        if x.len == 0 {
            return Ok(());
        }
        let ctx = self.ctx().clone();
        let what = "a scan (scans bind their whole input and output)";
        ctx.check_binding_size(x.len, x.dtype, what)?;
        ctx.check_binding_size(out.len, out.dtype, what)?;
        let algorithm = match scan.algorithm {
            ScanAlgorithm::Auto => {
                let waits = self.output_waits(x, out, rows);
                ctx.auto_scan_algorithm(rows, len, waits)
            }
            a => a,
        };
        // Tiles load and store whole vec4 slots wherever both buffers are padded to 16 bytes.
        let padded = |a: &RawArray| a.capacity() >= padded_bytes(a.len, a.dtype);
        let input = ScanInput {
            op: scan.op,
            exclusive: scan.exclusive,
            dtype: x.dtype,
            rows,
            len,
            algorithm,
            aligned: padded(x) && padded(out),
            subgroup_max_size: ctx.capabilities().subgroup_max_size,
            testing: scan.testing,
        };
        let plan = plan_scan(&input, &ctx.tuning())?;
        self.encode_scan(&plan, x, out)
    }

    /// Leases the plan's temporaries and records its steps.
    fn encode_scan(&mut self, plan: &ScanPlan, x: &RawArray, out: &RawArray) -> Result<()> {
        let temps = (plan.temps.iter())
            .map(|&(len, dtype)| self.lease_temporary(len, dtype))
            .collect::<Result<Vec<_>>>()?;
        let array = |this: &mut Self, b: ScanBuf| match b {
            ScanBuf::Input => x.clone(),
            ScanBuf::Output => out.clone(),
            ScanBuf::Temp(i) => temps[i].clone(),
            ScanBuf::CleanStates => this.clean_states(),
        };
        for step in &plan.steps {
            match *step {
                ScanStep::Fill { dst, words } => {
                    let dst = array(self, dst);
                    self.record_fill(x, &dst, words, 0)?;
                }
                ScanStep::Pass {
                    variant,
                    src,
                    dst,
                    aux,
                    carries,
                    mut params,
                    groups,
                } => {
                    let (src, dst) = (array(self, src), array(self, dst));
                    let aux = aux.map(|b| array(self, b));
                    params.groups_x = self.grid(groups)?.0;
                    params.groups = groups;
                    let dst_bytes = padded_bytes(dst.len, dst.dtype);
                    let kernel = Kernel::Scan(variant);
                    let grid = (groups, 1);
                    self.push_dispatch_aux(
                        kernel,
                        &src,
                        &dst,
                        dst_bytes,
                        aux.as_ref(),
                        params,
                        grid,
                    )?;
                    if let Some(c) = carries {
                        let c = array(self, c);
                        self.bind_carries(&c);
                    }
                }
            }
        }
        Ok(())
    }

    /// The context's clean states (see [`LOOKBACK_CLEAN_TILES`]: look-back scans, and
    /// reductions whose last workgroup combines) as an array to bind: the next of its up to
    /// [`INDEPENDENT_SLOTS`](crate::kernels::INDEPENDENT_SLOTS) buffers, so that operations of
    /// one recording that share no array do not wait for each other.
    pub(crate) fn clean_states(&mut self) -> RawArray {
        let slot = self.clean_states;
        self.clean_states += 1;
        let inner = &self.ctx().inner;
        RawArray {
            storage: Arc::new(Storage::Context(
                inner.clean_states.get(&inner.device, slot),
            )),
            len: CLEAN_STATE_WORDS,
            dtype: DType::U32,
            ctx_id: self.ctx().id(),
        }
    }
}
