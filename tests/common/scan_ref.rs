//! CPU reference for scans: f64 for floats (with the magnitude a tolerance needs), wrapping
//! 32-bit arithmetic for integers; and the check with its stated tolerance.

use wgpu_reduce::{DType, ScanOp};

use super::reference::Data;

const U: f64 = f32::EPSILON as f64 / 2.0;

/// One expected output element.
#[derive(Debug, Clone, Copy)]
pub struct ScanExpected {
    /// The value (wrapped for integer sums; NaN once a NaN has been seen in a min/max/float sum).
    pub value: f64,
    /// Σ|x| of the elements combined into it (float sums' tolerance).
    pub mag: f64,
    /// Position in its row.
    pub pos: usize,
}

fn fold(op: ScanOp, a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    match op {
        ScanOp::Add => a + b,
        ScanOp::Min => a.min(b),
        ScanOp::Max => a.max(b),
    }
}

/// The float identity of `op`.
fn identity(op: ScanOp) -> f64 {
    match op {
        ScanOp::Add => 0.0,
        ScanOp::Min => f64::INFINITY,
        ScanOp::Max => f64::NEG_INFINITY,
    }
}

/// The scan of `data` as `rows` rows of `len`, along each row.
pub fn scan_reference(
    data: &Data,
    rows: usize,
    len: usize,
    op: ScanOp,
    exclusive: bool,
) -> Vec<ScanExpected> {
    let mut out = Vec::with_capacity(rows * len);
    for r in 0..rows {
        let row = r * len..(r + 1) * len;
        match data {
            Data::F(v) => {
                let (mut acc, mut mag) = (identity(op), 0.0);
                for (pos, &x) in v[row].iter().enumerate() {
                    let (before, before_mag) = (acc, mag);
                    acc = fold(op, acc, x);
                    mag += x.abs();
                    let (value, mag) = if exclusive {
                        (before, before_mag)
                    } else {
                        (acc, mag)
                    };
                    out.push(ScanExpected { value, mag, pos });
                }
            }
            Data::I32(v) => int_row(&v[row], op, exclusive, i32::wrapping_add, &mut out),
            Data::U32(v) => int_row(&v[row], op, exclusive, u32::wrapping_add, &mut out),
        }
    }
    out
}

/// One row of an integer scan: wrapping sums, exact min/max, the identity first when exclusive.
fn int_row<T: Copy + Ord + Bounded + Into<f64>>(
    row: &[T],
    op: ScanOp,
    exclusive: bool,
    wrapping_add: fn(T, T) -> T,
    out: &mut Vec<ScanExpected>,
) {
    let mut acc = match op {
        ScanOp::Add => T::ZERO,
        ScanOp::Min => T::MAX,
        ScanOp::Max => T::MIN,
    };
    for (pos, &x) in row.iter().enumerate() {
        let before = acc;
        acc = match op {
            ScanOp::Add => wrapping_add(acc, x),
            ScanOp::Min => acc.min(x),
            ScanOp::Max => acc.max(x),
        };
        let value = if exclusive { before } else { acc }.into();
        out.push(ScanExpected {
            value,
            mag: 0.0,
            pos,
        });
    }
}

/// The integer element types' identities.
trait Bounded {
    const ZERO: Self;
    const MIN: Self;
    const MAX: Self;
}

impl Bounded for i32 {
    const ZERO: i32 = 0;
    const MIN: i32 = i32::MIN;
    const MAX: i32 = i32::MAX;
}

impl Bounded for u32 {
    const ZERO: u32 = 0;
    const MIN: u32 = u32::MIN;
    const MAX: u32 = u32::MAX;
}

/// Tolerance of a float add scan's element, computed in f32 by the library's kernels with tiles
/// of `tile` elements: every output is a sum along a dependency path of at most
/// `4 (within a slot) + 8 (group scan) + 4 (chunks) + 64 (groups) + 4` additions per level, at
/// most 4 levels of reduce-then-scan (or one tile-by-tile look-back chain of `pos / tile + 1`
/// tiles), each adding at most `u · Σ|x|`; plus the final rounding to f32 (`u · |value|`) and the
/// smallest normal f32. Min, max and integer scans are exact (tolerance 0).
pub fn scan_tolerance(op: ScanOp, output: DType, e: &ScanExpected, tile: usize) -> f64 {
    if op != ScanOp::Add || !output.is_float() {
        return 0.0;
    }
    let depth = 4.0 * 84.0 + (e.pos / tile + 1) as f64;
    depth * U * e.mag + U * e.value.abs() + f64::from(f32::MIN_POSITIVE)
}

/// Checks `got` against `want`: NaN where NaN is expected, equal infinities, else within
/// [`scan_tolerance`] (or `exact`: tolerance 0 for every element).
pub fn check_scan(
    what: &str,
    op: ScanOp,
    output: DType,
    got: &[f64],
    want: &[ScanExpected],
    tile: usize,
    exact: bool,
) {
    assert_eq!(got.len(), want.len(), "{what}: result length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if w.value.is_nan() {
            assert!(g.is_nan(), "{what}[{i}]: got {g}, want NaN");
            continue;
        }
        if w.value.is_infinite() || g.is_infinite() || g.is_nan() {
            assert_eq!(*g, w.value, "{what}[{i}]: got {g}, want {}", w.value);
            continue;
        }
        let tol = if exact {
            0.0
        } else {
            scan_tolerance(op, output, w, tile)
        };
        assert!(
            (g - w.value).abs() <= tol,
            "{what}[{i}] (position {} in its row): got {g}, want {}, |diff| {} > tolerance {tol}",
            w.pos,
            w.value,
            (g - w.value).abs()
        );
    }
}
