//! The sorting methods users call: [`Recorder::sort`], [`Recorder::sort_pairs`] and
//! [`Recorder::argsort`], and the selections [`Recorder::topk`] and [`Recorder::kthvalue`] (see
//! [`crate::ops::sort`] for the algorithms and the order).

use crate::array::GpuArray;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::ops::{Sort, TopK};
use crate::record::{Recorder, SortValues, Taken};

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

/// `k` out of `0..=len` (`1..=len` where `least` is 1), or [`Error::InvalidParameter`].
fn check_k(k: usize, len: usize, least: usize, allowed: &'static str) -> Result<()> {
    if k < least || k > len {
        return Err(Error::InvalidParameter {
            name: "k",
            value: format!("{k} (rows of {len} keys)"),
            allowed,
        });
    }
    Ok(())
}

impl Recorder {
    /// Records the `k` largest keys of each row of `x` along its last axis (with
    /// [`TopK::largest`]`(false)`, the smallest) and their indices in the row, as
    /// `torch.topk(x, k, dim=-1)`: arrays of `x`'s shape with the last axis `k` long. NaN counts
    /// as the largest key; among equal keys the lower indices are taken, and when sorted (the
    /// default) come first; unsorted, the keys come in the order of their indices. `k` above
    /// the row's length is [`Error::InvalidParameter`].
    ///
    /// A radix select: per 8-bit digit from the top, a histogram of each row's keys that match
    /// the digits chosen so far narrows the row to its k-th key; then the keys above it and
    /// the first of those equal to it are taken in index order (and sorted, k per row). It
    /// costs a few reads of `x`, not a sort of it. Rows of at most 1,024 keys (sorted) are
    /// sorted a workgroup each and their first k taken.
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::{Context, TopK};
    /// let ctx = Context::new()?;
    /// let x = ctx.upload(&[0.5f32, 9.0, -3.0, 9.0, 4.0])?;
    /// let (values, indices) = ctx.run(|rec| rec.topk(&x, 3, &TopK::new()))?;
    /// assert_eq!((values, indices), (vec![9.0, 9.0, 4.0], vec![1, 3, 4]));
    /// # Ok(()) }
    /// ```
    pub fn topk<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        k: usize,
        topk: &TopK,
    ) -> Result<(GpuArray<T>, GpuArray<u32>)> {
        let len = row_len(x.shape());
        check_k(k, len, 0, "0 <= k <= the length of the last axis")?;
        let mut shape = x.shape().to_vec();
        match shape.last_mut() {
            Some(last) => *last = k,
            None if k == 0 => shape.push(0),
            None => {}
        }
        let values = self.lease_output::<T>(shape.clone())?;
        let indices = self.lease_output::<u32>(shape)?;
        let taken = Taken::TopK {
            values: &values.raw(),
            indices: &indices.raw(),
            sorted: topk.sorted,
        };
        self.record_select(&x.raw(), len, k, !topk.largest, taken)?;
        Ok((values, indices))
    }

    /// Records the `k`-th smallest key of each row of `x` along its last axis (`k` from 1) and
    /// its index in the row, as `torch.kthvalue(x, k, dim=-1, keepdim)`: the key a stable
    /// ascending sort puts at place `k - 1`, NaN the largest, so among equal keys the index is
    /// that of the sort. The lower median of rows without NaN is `kthvalue(x, (len + 1) / 2)`.
    /// `k` of 0 or above the row's length is [`Error::InvalidParameter`].
    ///
    /// ```no_run
    /// # fn main() -> wgpu_reduce::Result<()> {
    /// use wgpu_reduce::Context;
    /// let ctx = Context::new()?;
    /// let x = ctx.upload_shaped(&[4u32, 1, 7, 1, 9, 8, 8, 2], &[2, 4])?;
    /// let (value, index) = ctx.run(|rec| rec.kthvalue(&x, 2, false))?;
    /// assert_eq!((value, index), (vec![1, 8], vec![3, 1]));
    /// # Ok(()) }
    /// ```
    pub fn kthvalue<T: Element>(
        &mut self,
        x: &GpuArray<T>,
        k: usize,
        keepdim: bool,
    ) -> Result<(GpuArray<T>, GpuArray<u32>)> {
        let len = row_len(x.shape());
        check_k(k, len, 1, "1 <= k <= the length of the last axis")?;
        let mut shape = x.shape().to_vec();
        if shape.pop().is_some() && keepdim {
            shape.push(1);
        }
        let value = self.lease_output::<T>(shape.clone())?;
        let index = self.lease_output::<u32>(shape)?;
        let taken = Taken::Kth {
            value: &value.raw(),
            index: &index.raw(),
        };
        self.record_select(&x.raw(), len, k, true, taken)?;
        Ok((value, index))
    }
}
