//! The scan methods users call: [`Recorder::scan`] for any [`Scan`], and the running sum,
//! minimum and maximum.

use crate::array::GpuArray;
use crate::element::Element;
use crate::error::Result;
use crate::ops::{Scan, ScanOp};
use crate::record::Recorder;

impl Recorder {
    /// Records a scan of `x` along its last axis (each row scanned independently; a 1-D array
    /// is one row). `O` must be `T::Acc`: f32 for f16/bf16 input, the input type otherwise
    /// (another type is [`Error::UnsupportedOutput`](crate::Error::UnsupportedOutput) when
    /// recorded; [`cumsum`](Self::cumsum), [`cummin`](Self::cummin) and
    /// [`cummax`](Self::cummax) fix it at compile time). The result has `x`'s shape and stays
    /// on the GPU.
    pub fn scan<T: Element, O: Element>(
        &mut self,
        x: &GpuArray<T>,
        scan: &Scan,
    ) -> Result<GpuArray<O>> {
        scan.rows(x.shape())?;
        let out = self.lease_output::<O>(x.shape().to_vec())?;
        self.record_scan(scan, &x.raw(), x.shape(), &out.raw())?;
        Ok(out)
    }

    /// Records a scan of `x` into `out`, a caller's array of as many elements (not `x`
    /// itself: scans are not in place); `O` is checked as in [`scan`](Self::scan).
    pub fn scan_into<T: Element, O: Element>(
        &mut self,
        x: &GpuArray<T>,
        scan: &Scan,
        out: &GpuArray<O>,
    ) -> Result<()> {
        self.record_scan(scan, &x.raw(), x.shape(), &out.raw())
    }

    /// Records an inclusive running sum along the last axis (`torch.cumsum(x, -1)`; the result
    /// type is f32 for f16/bf16, else the input type, and integers wrap).
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// let ctx = wgpu_reduce::Context::new()?;
    /// let x = ctx.upload_shaped(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// assert_eq!(ctx.run(|rec| rec.cumsum(&x))?, vec![1.0, 3.0, 6.0, 4.0, 9.0, 15.0]);
    /// # Ok(()) }
    /// ```
    pub fn cumsum<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T::Acc>> {
        self.scan(x, &Scan::new(ScanOp::Add))
    }

    /// Records an inclusive running minimum along the last axis (`torch.cummin(x, -1).values`).
    pub fn cummin<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T::Acc>> {
        self.scan(x, &Scan::new(ScanOp::Min))
    }

    /// Records an inclusive running maximum along the last axis (`torch.cummax(x, -1).values`).
    pub fn cummax<T: Element>(&mut self, x: &GpuArray<T>) -> Result<GpuArray<T::Acc>> {
        self.scan(x, &Scan::new(ScanOp::Max))
    }
}
