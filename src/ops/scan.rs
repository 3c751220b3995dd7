//! Prefix scans: inclusive and exclusive add, min and max, of a whole array or of each row along
//! the last axis.
//!
//! Two algorithms, both recorded as passes of one compute pass (so a scan and the reductions
//! around it share one submission):
//!
//! - **Reduce-then-scan** ([`ScanAlgorithm::ReduceThenScan`]): each tile of `4 · 4 · workgroup`
//!   elements is reduced to its total, the totals are scanned (the same algorithm, recursively),
//!   and a last pass scans each tile again starting from its scanned total. No workgroup ever
//!   waits for another; deterministic; reads the input twice.
//! - **Decoupled look-back with fallback** ([`ScanAlgorithm::DecoupledFallback`], Smith, Levien
//!   and Owens, SPAA 2025): one pass. Each tile publishes its total, then walks back over its
//!   predecessors' published states, a window of one state per invocation at a time, until it
//!   finds an inclusive prefix. A tile that finds the nearest unread predecessor not ready after
//!   a bounded number of steps reduces that predecessor's tile itself
//!   (the input is read-only) and goes on, so progress never depends on other workgroups being
//!   scheduled — Metal gives no forward-progress guarantee. Each state is a flag and a 32-bit value
//!   split over two 32-bit atomic words, so no 64-bit atomics are needed. Reads the input once,
//!   except where a tile falls back: that tile then reads its own input again and scans it after
//!   the walk, rather than keeping its scanned values in registers across a fallback that holds
//!   a second tile. Float sums may differ in the last bits between runs (the order in which tiles' totals are
//!   combined depends on timing).
//!
//! Rows of at most [`Tuning::scan_serial_max_len`](crate::Tuning) elements (64) are scanned one row per invocation, element by
//! element (one pass, no barriers); longer rows that fit one tile take the smallest workgroup
//! whose tile holds them (one pass).

use crate::element::DType;
use crate::error::{Error, Result};

/// The operation of a scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScanOp {
    /// Running sum (`cumsum`). Integers wrap modulo 2^32; floats accumulate in f32.
    Add,
    /// Running minimum (`cummin`'s values). NaN propagates from its position on (as the quiet
    /// NaN `0x7fc00000`). Floats are ordered as IEEE 754-2019 `minimum` orders them: -0.0 below
    /// +0.0, so the minimum of the two is -0.0 whichever comes first (NumPy's
    /// `minimum.accumulate` keeps the first of two equal zeros).
    Min,
    /// Running maximum (`cummax`'s values). NaN propagates from its position on (as the quiet
    /// NaN `0x7fc00000`). Floats are ordered as IEEE 754-2019 `maximum` orders them: the
    /// maximum of -0.0 and +0.0 is +0.0 whichever comes first.
    Max,
}

impl ScanOp {
    /// Every scan operation.
    pub const ALL: [ScanOp; 3] = [ScanOp::Add, ScanOp::Min, ScanOp::Max];

    /// Lower-case name (`add`, `min`, `max`).
    pub const fn name(self) -> &'static str {
        match self {
            ScanOp::Add => "add",
            ScanOp::Min => "min",
            ScanOp::Max => "max",
        }
    }

    /// Parses a name as printed by [`name`](Self::name) (also `sum`, `cumsum`, `cummin`,
    /// `cummax`).
    pub fn parse(s: &str) -> Option<ScanOp> {
        match s {
            "add" | "sum" | "cumsum" => Some(ScanOp::Add),
            "min" | "cummin" => Some(ScanOp::Min),
            "max" | "cummax" => Some(ScanOp::Max),
            _ => None,
        }
    }

    /// The result type of a scan of `input`: f32 for f16 and bf16 (accumulated in f32), the
    /// input type otherwise.
    pub const fn output(self, input: DType) -> DType {
        if input.is_half() {
            DType::F32
        } else {
            input
        }
    }
}

crate::error::from_str_by_name!(ScanOp, "scan operation");

/// Which scan algorithm runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ScanAlgorithm {
    /// The library's choice for this adapter and row length (see [`Context::scan_algorithm`](crate::Context::scan_algorithm)).
    #[default]
    Auto,
    /// Tile totals, a scan of them, and a downsweep: never waits, deterministic.
    ReduceThenScan,
    /// Single pass, decoupled look-back with fallback.
    DecoupledFallback,
}

impl std::str::FromStr for ScanAlgorithm {
    type Err = crate::error::Error;

    /// `auto`, `reduce-then-scan` (or `rts`), `decoupled-fallback` (or `lookback`).
    fn from_str(s: &str) -> crate::error::Result<ScanAlgorithm> {
        match s {
            "auto" => Ok(ScanAlgorithm::Auto),
            "reduce-then-scan" | "rts" => Ok(ScanAlgorithm::ReduceThenScan),
            "decoupled-fallback" | "lookback" => Ok(ScanAlgorithm::DecoupledFallback),
            _ => Err(crate::error::Error::UnknownName {
                what: "scan algorithm",
                name: s.to_string(),
                allowed: "auto, reduce-then-scan (rts), decoupled-fallback (lookback)".into(),
            }),
        }
    }
}

/// What a scan computes: operation, inclusive or exclusive, axis and algorithm.
///
/// ```no_run
/// # fn main() -> wgpu_reduce::Result<()> {
/// use wgpu_reduce::{Context, Scan, ScanOp};
/// let ctx = Context::new()?;
/// let x = ctx.upload(&[3i32, 1, 4, 1, 5])?;
/// let mut rec = ctx.recorder();
/// let inc = rec.scan::<i32, i32>(&x, &Scan::new(ScanOp::Add))?;
/// let exc = rec.scan::<i32, i32>(&x, &Scan::new(ScanOp::Add).exclusive(true))?;
/// let hi = rec.scan::<i32, i32>(&x, &Scan::new(ScanOp::Max))?;
/// let t = [rec.read(&inc)?, rec.read(&exc)?, rec.read(&hi)?];
/// let r = rec.submit()?.wait()?;
/// assert_eq!(r.get(&t[0])?, vec![3, 4, 8, 9, 14]);
/// assert_eq!(r.get(&t[1])?, vec![0, 3, 4, 8, 9]);
/// assert_eq!(r.get(&t[2])?, vec![3, 3, 4, 4, 5]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// The operation.
    pub op: ScanOp,
    /// Exclusive: element i gets the combination of elements before i (the identity — 0, +inf,
    /// -inf, or the integer type's extreme — for the first element of each row).
    pub exclusive: bool,
    /// The axis scanned; only the last axis is supported (`-1`, the default, or `ndim - 1`).
    pub axis: i32,
    /// The algorithm.
    pub algorithm: ScanAlgorithm,
    /// Switches for the library's own tests.
    #[doc(hidden)]
    pub testing: ScanTesting,
}

/// Switches of a look-back scan for the library's own tests; not part of the API. Each makes
/// look-backs take their fallback paths, which are otherwise rare; results stay correct.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanTesting {
    /// Steps (each reads a window of predecessors' states) that find the nearest unread
    /// predecessor not ready before the workgroup reduces that predecessor's tile itself.
    pub spin_limit: u32,
    /// Ignore every published state and always fall back (each tile then reduces every tile
    /// before it in its row: quadratic work).
    pub force_fallback: bool,
    /// Tiles after the first of each row publish only their own totals, never inclusive
    /// prefixes, so every look-back walks back to the row's first tile.
    pub aggregates_only: bool,
    /// The published states of every third tile (tiles `t` with `t % 3 == 1`) are never seen as
    /// ready, so look-backs consume windows in part, wait, and fall back past those tiles.
    pub hide_some: bool,
}

/// Look-back steps that find a predecessor not ready before the fallback.
pub(crate) const LOOKBACK_SPIN_LIMIT: u32 = 8;

impl ScanTesting {
    /// No switch on.
    pub const NONE: ScanTesting = ScanTesting {
        spin_limit: LOOKBACK_SPIN_LIMIT,
        force_fallback: false,
        aggregates_only: false,
        hide_some: false,
    };
}

impl Scan {
    /// An inclusive scan of `op` along the last axis, algorithm chosen by the library.
    pub const fn new(op: ScanOp) -> Scan {
        Scan {
            op,
            exclusive: false,
            axis: -1,
            algorithm: ScanAlgorithm::Auto,
            testing: ScanTesting::NONE,
        }
    }

    /// Exclusive (`true`) or inclusive (`false`, the default).
    pub const fn exclusive(mut self, exclusive: bool) -> Scan {
        self.exclusive = exclusive;
        self
    }

    /// The axis to scan (must be the last; negative counts from the end).
    pub const fn axis(mut self, axis: i32) -> Scan {
        self.axis = axis;
        self
    }

    /// Picks the algorithm.
    pub const fn algorithm(mut self, algorithm: ScanAlgorithm) -> Scan {
        self.algorithm = algorithm;
        self
    }

    /// Sets [`ScanTesting::spin_limit`] (tests only).
    #[doc(hidden)]
    pub const fn spin_limit(mut self, spins: u32) -> Scan {
        self.testing.spin_limit = spins;
        self
    }

    /// Sets [`ScanTesting::force_fallback`] (tests only).
    #[doc(hidden)]
    pub const fn force_fallback(mut self, force: bool) -> Scan {
        self.testing.force_fallback = force;
        self
    }

    /// Sets [`ScanTesting::aggregates_only`] (tests only).
    #[doc(hidden)]
    pub const fn aggregates_only(mut self, on: bool) -> Scan {
        self.testing.aggregates_only = on;
        self
    }

    /// Sets [`ScanTesting::hide_some`] (tests only).
    #[doc(hidden)]
    pub const fn hide_some(mut self, on: bool) -> Scan {
        self.testing.hide_some = on;
        self
    }

    pub(crate) fn name(&self) -> &'static str {
        match (self.op, self.exclusive) {
            (ScanOp::Add, false) => "inclusive add scan (cumsum)",
            (ScanOp::Add, true) => "exclusive add scan",
            (ScanOp::Min, false) => "inclusive min scan (cummin)",
            (ScanOp::Min, true) => "exclusive min scan",
            (ScanOp::Max, false) => "inclusive max scan (cummax)",
            (ScanOp::Max, true) => "exclusive max scan",
        }
    }

    /// `(rows, len)` of `shape` scanned along this scan's axis, or the error that says why not.
    pub(crate) fn rows(&self, shape: &[usize]) -> Result<(usize, usize)> {
        let ndim = shape.len();
        // A 0-d array scans as one element (axis 0 or -1, as PyTorch allows).
        let dims = ndim.max(1) as i32;
        let a = if self.axis < 0 {
            self.axis + dims
        } else {
            self.axis
        };
        if a < 0 || a >= dims {
            return Err(Error::AxisOutOfRange {
                axis: self.axis,
                ndim,
            });
        }
        if a != dims - 1 {
            return Err(Error::UnsupportedAxes {
                op: self.name(),
                axes: vec![self.axis],
                allowed: "scans run along the last axis only (-1 or ndim - 1); move the axis \
                          last first",
            });
        }
        let len = shape.last().copied().unwrap_or(1);
        let total: usize = shape.iter().product();
        Ok((total.checked_div(len).unwrap_or(0), len))
    }
}
