//! The sorting methods users call: [`Recorder::sort`], [`Recorder::sort_pairs`] and
//! [`Recorder::argsort`] (see [`crate::ops::sort`] for the algorithm and the order).

use crate::array::GpuArray;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::ops::Sort;
use crate::record::{Recorder, SortValues};

/// Keys per row: sorts run along the last axis (a 0-d array is one key).
fn row_len(shape: &[usize]) -> usize {
    shape.last().copied().unwrap_or(1)
}

impl Recorder {
    /// Records a stable sort of the keys `x` (any element type) along its last axis, each row on
    /// its own (`torch.sort(x, dim=-1, stable=True)`): a new array of the same type and shape.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{Context, Sort};
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[3i32, -7, 0, 3, 12])?;
    /// assert_eq!(ctx.run(|rec| rec.sort(&x, &Sort::new()))?, vec![-7, 0, 3, 3, 12]);
    /// # Ok(()) }
    /// ```
    pub fn sort<T: Element>(&mut self, x: &GpuArray<T>, sort: &Sort) -> Result<GpuArray<T>> {
        let out = self.lease_output::<T>(x.shape().to_vec())?;
        let len = row_len(x.shape());
        self.record_sort(sort, &x.raw(), len, SortValues::None, &out.raw(), None)?;
        Ok(out)
    }

    /// Records a stable sort of `keys` (any element type) along its last axis with `values` (of
    /// the same shape, of any 4-byte type: u32, i32, f32) moving with them: the sorted keys and
    /// their values. Arrays of different shapes are [`Error::InputsDiffer`]; 16-bit values,
    /// [`Error::UnsupportedInput`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{Context, Sort};
    /// let ctx = Context::new()?;
    /// let keys = ctx.upload(&[2.5f32, -1.0, 2.5, 0.0])?;
    /// let ids = ctx.upload(&[10u32, 11, 12, 13])?;
    /// let (k, v) = ctx.run(|rec| rec.sort_pairs(&keys, &ids, &Sort::new().descending(true)))?;
    /// assert_eq!((k, v), (vec![2.5, 2.5, 0.0, -1.0], vec![10, 12, 13, 11]));
    /// # Ok(()) }
    /// ```
    pub fn sort_pairs<K: Element, V: Element>(
        &mut self,
        keys: &GpuArray<K>,
        values: &GpuArray<V>,
        sort: &Sort,
    ) -> Result<(GpuArray<K>, GpuArray<V>)> {
        if keys.shape() != values.shape() {
            return Err(Error::InputsDiffer {
                op: "sort_pairs",
                a: keys.shape().to_vec(),
                a_dtype: keys.dtype(),
                b: values.shape().to_vec(),
                b_dtype: values.dtype(),
            });
        }
        let keys_out = self.lease_output::<K>(keys.shape().to_vec())?;
        let values_out = self.lease_output::<V>(values.shape().to_vec())?;
        let v = values.raw();
        self.record_sort(
            sort,
            &keys.raw(),
            row_len(keys.shape()),
            SortValues::Array(&v),
            &keys_out.raw(),
            Some(&values_out.raw()),
        )?;
        Ok((keys_out, values_out))
    }

    /// Records the indices that sort `x` stably along its last axis (any element type), as
    /// `torch.argsort(x, dim=-1, stable=True)`: each row's indices count from the row's start,
    /// and indices of equal keys increase.
    pub fn argsort<T: Element>(&mut self, x: &GpuArray<T>, sort: &Sort) -> Result<GpuArray<u32>> {
        let keys_out = self.lease_output::<T>(x.shape().to_vec())?;
        let indices = self.lease_output::<u32>(x.shape().to_vec())?;
        self.record_sort(
            sort,
            &x.raw(),
            row_len(x.shape()),
            SortValues::Indices,
            &keys_out.raw(),
            Some(&indices.raw()),
        )?;
        Ok(indices)
    }
}
