//! Recording a segmented reduction: the offsets check (for offsets already on the GPU), the
//! short segments and the blocks of the values in one dispatch of the segments layout, the long
//! segments from the blocks' states in a second, and the 16-bit packing of the results.

use super::reduce::check_output;
use super::{Check, Recorder};
use crate::array::RawArray;
use crate::element::DType;
use crate::error::{Error, Result};
use crate::kernels::params::{AxisParams, FillParams};
use crate::kernels::{AxisVariant, Kernel, Layout};
use crate::ops::ReduceOp;
use crate::plan::reduce::{plan_segments, SEGMENT_BLOCK_SHIFT};

impl Recorder {
    /// Records `op` over the `segments` segments of `x` that `offsets` (u32, `segments + 1` of
    /// them) delimit, into `out`. `longest` is the longest segment where the offsets were
    /// checked on the host; else the offsets are checked on the GPU (see
    /// [`read_check`](Self::read_check)).
    pub(crate) fn record_segments(
        &mut self,
        op: ReduceOp,
        x: &RawArray,
        offsets: &RawArray,
        longest: Option<u64>,
        out: &RawArray,
    ) -> Result<()> {
        self.check_ctx(x, "the values")?;
        self.check_ctx(offsets, "the offsets")?;
        self.check_ctx(out, "the output array")?;
        if !op.segmentable() {
            return Err(Error::InvalidParameter {
                name: "op",
                value: op.name().into(),
                allowed: "segmented reductions take sum, prod, min, max, mean, argmin, argmax",
            });
        }
        check_output(op, x.dtype, out.dtype)?;
        if offsets.dtype != DType::U32 || offsets.len == 0 {
            return Err(Error::InvalidUse(format!(
                "segment offsets are u32, one more than the segments; got {} of {}",
                offsets.len, offsets.dtype
            )));
        }
        let segments = offsets.len - 1;
        if out.len != segments {
            return Err(Error::InvalidUse(format!(
                "{segments} segments give {segments} results; the output array has {}",
                out.len
            )));
        }
        let limit = self.binding_limit();
        for (what, bytes) in [("the values", x.bytes()), ("the offsets", offsets.bytes())] {
            if bytes > limit {
                return Err(Error::TooLarge {
                    what: format!("{what} of a segmented reduction (one binding)"),
                    bytes,
                    limit,
                    limit_name: "max_storage_buffer_binding_size",
                });
            }
        }
        let n = x.len as u64;
        if n > u64::from(u32::MAX) {
            return Err(Error::TooLarge {
                what: "the values of a segmented reduction (u32 offsets)".into(),
                bytes: x.bytes(),
                limit: u64::from(u32::MAX) * x.dtype.size_bytes() as u64,
                limit_name: "u32 offsets",
            });
        }
        if longest.is_none() {
            self.record_offsets_check(offsets, segments, n)?;
        }
        if segments == 0 {
            return Ok(());
        }
        let wg = self.ctx().tuning().workgroup_size;
        let plan = plan_segments(segments as u64, n, longest, wg);
        let kernel_out = op.output(x.dtype);
        let final_dst = if out.dtype == kernel_out {
            out.clone()
        } else {
            self.lease_temporary(segments, kernel_out)?
        };
        let kernel = Kernel::Axis(AxisVariant {
            layout: Layout::Segments,
            op,
            input: x.dtype,
            src_state: false,
            dst_final: true,
            workgroup_size: wg,
            map: 0,
            last_group: false,
        });
        // Two states per block of the values (shaders/axis/entry_segments.wgsl).
        let blocks = match plan.blocks {
            0 => None,
            b => Some(self.state_array(op, x.dtype, 2 * b as usize)?),
        };
        let dst_window = 0..segments as u64 * kernel_out.size_bytes() as u64;
        let offsets_window = 0..offsets.bytes();
        // The short segments, then the blocks; then the long segments from the blocks' states.
        let mut dispatches = vec![(plan.tiles + plan.blocks, 0)];
        if plan.blocks > 0 {
            dispatches.push((plan.blocks, AxisParams::SEGMENT_LONG));
        }
        for (groups, flag) in dispatches {
            let p = AxisParams {
                outer: segments as u32,
                r: n as u32,
                inner: 1,
                splits: plan.long,
                chunk: SEGMENT_BLOCK_SHIFT,
                tiles: plan.tiles,
                lanes_shift: plan.lanes.trailing_zeros(),
                groups,
                groups_x: self.grid(groups)?.0,
                flags: AxisParams::FINAL | flag,
                ..Default::default()
            };
            self.push_windowed(
                kernel,
                (x, 0..x.bytes()),
                (&final_dst, dst_window.clone()),
                blocks.as_ref(),
                p,
                (groups, 1),
            )?;
            self.bind_second(offsets, offsets_window.clone());
        }
        if out.dtype != kernel_out {
            self.record_pack(&final_dst, out)?;
        }
        Ok(())
    }

    /// Records the check of `segments + 1` offsets on the GPU against `n` values: a flag set to
    /// u32::MAX, lowered to the first invalid segment, and read with the results.
    fn record_offsets_check(&mut self, offsets: &RawArray, segments: usize, n: u64) -> Result<()> {
        let flag = self.lease_temporary(1, DType::U32)?;
        self.record_fill(offsets, &flag, 1, u32::MAX)?;
        let groups = segments.div_ceil(256).max(1) as u32;
        let check = FillParams {
            n: segments as u32,
            groups_x: self.grid(groups)?.0,
            value: n as u32,
            ..Default::default()
        };
        self.push_dispatch(Kernel::CheckOffsets, offsets, &flag, 4, check, (groups, 1))?;
        self.read_check(&flag, Check::Offsets);
        Ok(())
    }
}
