//! The general `[outer, r, inner]` kernel's variants: every operation, six layouts.

use super::source::wgsl;
use super::WORKGROUP_SIZES;
use super::{compose, scalar_hooks, type_files};
use crate::element::DType;
use crate::ops::ReduceOp;

/// How an [`AxisVariant`] maps threads onto `[outer, r, inner]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layout {
    /// `inner == 1`: each output is a contiguous row of `r` elements; `lanes` threads share a
    /// row (a power of two up to the workgroup size), so short rows pack many to a workgroup.
    Rows,
    /// `inner > 1`: threads of a workgroup cover `lanes` adjacent columns (coalesced reads) and
    /// `WG / lanes` slices of `r`, combined in shared memory.
    Cols,
    /// Short rows, one thread per row: each thread owns four rows `WG` apart (four loads in
    /// flight), no shared memory.
    RowsWide,
    /// Columns where the outputs alone fill the GPU: each thread owns four columns `WG` apart
    /// and reads its whole chunk of the reduced axis, no shared memory.
    ColsWide,
    /// First pass of argmin/argmax, aminmax and the 2-norm over f32 rows of whole vec4 words:
    /// threads stride over the words (integer keys, or the 2-norm's sums of squares per lane);
    /// over a whole array (one state per workgroup), or `lanes` threads per row (or chunk of a
    /// row) of a matrix (see shaders/reduce_flat.wgsl).
    Flat,
    /// Columns of 16-bit input (first pass, even `inner`): each thread owns two adjacent
    /// columns, the halves of one u32 word.
    ColPairs,
    /// Rows of 16-bit input (first pass, even `r`): each thread reads whole u32 words, two
    /// adjacent elements of its row per load.
    RowPairs,
    /// Segments of a segmented reduction: output `s` reduces elements `[offsets[s],
    /// offsets[s + 1])` (CSR offsets bound at binding 0), `lanes` threads per segment, long
    /// segments by blocks of the values (see shaders/axis/entry_segments.wgsl).
    Segments,
}

impl Layout {
    /// Every layout.
    pub const ALL: [Layout; 8] = [
        Layout::Rows,
        Layout::Cols,
        Layout::RowsWide,
        Layout::ColsWide,
        Layout::Flat,
        Layout::ColPairs,
        Layout::RowPairs,
        Layout::Segments,
    ];

    /// Lower-case name, as used in kernel labels.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Rows => "rows",
            Layout::Cols => "cols",
            Layout::RowsWide => "rowswide",
            Layout::ColsWide => "colswide",
            Layout::Flat => "flat",
            Layout::ColPairs => "colpairs",
            Layout::RowPairs => "rowpairs",
            Layout::Segments => "segments",
        }
    }
}

/// One specialisation of the general `[outer, r, inner]` reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AxisVariant {
    /// Thread mapping.
    pub layout: Layout,
    /// The reduction (any [`ReduceOp`]).
    pub op: ReduceOp,
    /// Element type of the original input (fixes the state type).
    pub input: DType,
    /// The pass reads states of an earlier pass instead of input elements.
    pub src_state: bool,
    /// The pass writes final results (else states for a later pass).
    pub dst_final: bool,
    /// Workgroup size, one of [`WORKGROUP_SIZES`].
    pub workgroup_size: u32,
    /// The [`Map`](crate::Map) a first pass applies to each element ([`Map::id`](crate::Map::id)),
    /// or 0 for none.
    pub map: u32,
    /// The flat layout over one row, finished in one pass: its last workgroup combines the
    /// others' states (shaders/reduce_flat.wgsl; other variants do not hold that code).
    pub last_group: bool,
}

impl AxisVariant {
    /// Every variant the library can build.
    pub fn all() -> Vec<AxisVariant> {
        let mut v = Vec::new();
        for layout in Layout::ALL {
            for op in ReduceOp::ALL {
                for input in DType::ALL {
                    for src_state in [false, true] {
                        for dst_final in [false, true] {
                            for (workgroup_size, last_group) in WORKGROUP_SIZES
                                .into_iter()
                                .flat_map(|w| [(w, false), (w, true)])
                            {
                                let k = AxisVariant {
                                    layout,
                                    op,
                                    input,
                                    src_state,
                                    dst_final,
                                    workgroup_size,
                                    map: 0,
                                    last_group,
                                };
                                let exists = op.accepts(input)
                                    && (!last_group || (layout == Layout::Flat && !src_state))
                                    && op.for_input(input) == op
                                    && k.canonical() == k
                                    && match layout {
                                        Layout::Flat => k.flat_capable(),
                                        Layout::ColPairs | Layout::RowPairs => {
                                            input.is_half() && !src_state && op != ReduceOp::Dot
                                        }
                                        Layout::Segments => {
                                            op.segmentable() && !src_state && dst_final
                                        }
                                        _ => true,
                                    };
                                if exists {
                                    v.push(k);
                                }
                            }
                        }
                    }
                }
            }
        }
        v
    }

    /// The variant with the same source that the library builds: a pass reading states
    /// depends only on the state, its combination and its finish, so such passes of 16-bit
    /// input are those of f32, and operations that differ only in how an element becomes a
    /// value share the passes of their combination (a dot product's, nansum's, the 1- and
    /// 0-norms' are sum's; any/count's are max/sum over u32; the inf norms' max/min).
    pub fn canonical(self) -> AxisVariant {
        if !self.src_state {
            return self;
        }
        let map = 0;
        let v = self.op.accumulator(self.input);
        let op = match self.op {
            ReduceOp::Dot | ReduceOp::NanSum | ReduceOp::Norm1 | ReduceOp::Norm0 => ReduceOp::Sum,
            ReduceOp::CountNonzero => ReduceOp::Sum,
            ReduceOp::Any | ReduceOp::NormInf => ReduceOp::Max,
            ReduceOp::NormNegInf => ReduceOp::Min,
            op => op,
        };
        let input = if self.input.is_half() || op != self.op {
            v
        } else {
            self.input
        };
        AxisVariant {
            op,
            input,
            map,
            last_group: false,
            ..self
        }
    }

    /// Whether the flat layout exists for this variant: the first pass (raw f32 input) of
    /// argmin/argmax, aminmax, the 2-norm, or of an operation whose state is one value that
    /// the whole-array kernel does not take (nansum, the 1-norm, any, all, count_nonzero),
    /// writing states, or results where each row takes one workgroup.
    pub fn flat_capable(&self) -> bool {
        (self.flat_along_rows() || self.op == ReduceOp::Norm2 || flat_lanes(self.op))
            && self.map == 0
            && self.input == DType::F32
            && !self.src_state
    }

    /// Whether the flat first pass of this variant's operation takes rows of a matrix too:
    /// argmin/argmax and aminmax. The others take it over whole arrays only (where it was
    /// measured faster).
    pub fn flat_along_rows(&self) -> bool {
        matches!(
            self.op,
            ReduceOp::Argmin | ReduceOp::Argmax | ReduceOp::AMinMax
        )
    }

    /// A short name, e.g. `axis_rows_argmax_f16_raw_state_wg256`.
    pub fn label(&self) -> String {
        let map = match self.map {
            0 => String::new(),
            id => format!("_map{id}"),
        };
        format!(
            "axis_{}_{}_{}_{}_{}_wg{}{map}{}",
            self.layout.name(),
            self.op.name(),
            self.input,
            if self.src_state { "state" } else { "raw" },
            if self.dst_final { "final" } else { "state" },
            self.workgroup_size,
            if self.last_group { "_lg" } else { "" }
        )
    }

    /// Bytes of one state value of this variant's operation and input type.
    pub fn state_bytes(&self) -> u64 {
        self.op.state_bytes()
    }

    /// The full WGSL source of this variant.
    pub fn source(&self) -> String {
        let (op, v) = (self.op, self.op.accumulator(self.input));
        let mut files = Vec::new();
        if !self.src_state {
            let (elem, pairs, second) = match self.input {
                DType::F16 => (
                    wgsl!("axis/elem_f16.wgsl"),
                    wgsl!("axis/pair_f16.wgsl"),
                    wgsl!("axis/elem_b_f16.wgsl"),
                ),
                DType::BF16 => (
                    wgsl!("axis/elem_bf16.wgsl"),
                    wgsl!("axis/pair_bf16.wgsl"),
                    wgsl!("axis/elem_b_bf16.wgsl"),
                ),
                _ => (wgsl!("axis/elem_32.wgsl"), "", wgsl!("axis/elem_b_32.wgsl")),
            };
            files.push(elem);
            if matches!(self.layout, Layout::ColPairs | Layout::RowPairs) {
                files.push(pairs);
            }
            if op == ReduceOp::Dot {
                files.push(second);
            }
        }
        files.extend(type_files(op, v));
        files.extend(state_files(op, v, self.layout));
        files.push(match (self.src_state, op, self.map) {
            (true, _, _) => wgsl!("axis/load_state.wgsl"),
            (false, ReduceOp::Dot, _) => wgsl!("axis/load_dot.wgsl"),
            (false, _, 0) => wgsl!("axis/load_raw.wgsl"),
            (false, _, _) => wgsl!("axis/load_mapped.wgsl"),
        });
        files.push(if self.dst_final {
            wgsl!("axis/store_final.wgsl")
        } else {
            wgsl!("axis/store_state.wgsl")
        });
        files.extend([wgsl!("shared/common.wgsl"), wgsl!("axis/axis.wgsl")]);
        if self.layout == Layout::Flat {
            files.push(match op {
                ReduceOp::AMinMax => wgsl!("axis/flat_aminmax.wgsl"),
                ReduceOp::Norm2 => wgsl!("axis/flat_norm2.wgsl"),
                op if flat_lanes(op) => wgsl!("axis/flat_lanes.wgsl"),
                _ => wgsl!("axis/flat_arg.wgsl"),
            });
            files.push(match self.last_group {
                true => wgsl!("axis/flat_finish.wgsl"),
                false => FLAT_NO_FINISH,
            });
        }
        // A thread's part of a row (axis/entry_rows.wgsl).
        match (self.layout, self.pairs_keys()) {
            (Layout::Rows, _) => files.extend([
                wgsl!("axis/rows_elements.wgsl"),
                wgsl!("axis/rows_loop.wgsl"),
            ]),
            (Layout::RowPairs, Some(_)) => files.extend([
                wgsl!("shared/keys16.wgsl"),
                wgsl!("axis/rows_pairs_keys.wgsl"),
            ]),
            (Layout::RowPairs, None) => files.extend([
                wgsl!("axis/rows_pairs_values.wgsl"),
                wgsl!("axis/rows_loop.wgsl"),
            ]),
            _ => {}
        }
        files.push(match self.layout {
            Layout::Flat => wgsl!("axis/flat.wgsl"),
            Layout::ColPairs => wgsl!("axis/col_pairs.wgsl"),
            Layout::Rows | Layout::RowPairs => wgsl!("axis/entry_rows.wgsl"),
            Layout::Cols => wgsl!("axis/entry_cols.wgsl"),
            Layout::RowsWide => wgsl!("axis/entry_rows_wide.wgsl"),
            Layout::ColsWide => wgsl!("axis/entry_cols_wide.wgsl"),
            Layout::Segments => wgsl!("axis/entry_segments.wgsl"),
        });
        let map = match (self.src_state, self.map) {
            (false, id) if id > 0 => crate::ops::map::source_of(id),
            _ => None,
        };
        let mut source = compose(self.prelude(), &files);
        if let Some(m) = map {
            source.push_str("\n// The map (crate::Map), as given.\n");
            source.push_str(&m);
            source.push('\n');
        }
        source
    }

    /// For the row pairs layout of min, max, argmin and argmax (16-bit keys,
    /// shaders/axis/rows_pairs_keys.wgsl): (KEYS_MAX, KEYS_ARG).
    fn pairs_keys(&self) -> Option<(bool, bool)> {
        if self.layout != Layout::RowPairs {
            return None;
        }
        match self.op {
            ReduceOp::Max => Some((true, false)),
            ReduceOp::Min => Some((false, false)),
            ReduceOp::Argmax => Some((true, true)),
            ReduceOp::Argmin => Some((false, true)),
            _ => None,
        }
    }

    /// Types and constants.
    fn prelude(&self) -> String {
        let op = self.op;
        // V: the value type the operation works in.
        let v = op.accumulator(self.input);
        let vt = v.wgsl();
        // E: the type an input element is converted to before from_elem.
        let et = op.element_value(self.input).wgsl();
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels/axis.rs).\n\
             const WG: u32 = {wg}u;\nconst WG_SHIFT: u32 = {shift}u;\nalias V = {vt};\nalias A = V;\n\
             alias E = {et};\n",
            label = self.label(),
            wg = self.workgroup_size,
            shift = self.workgroup_size.trailing_zeros(),
        );
        let flag = match op {
            ReduceOp::Var | ReduceOp::Std => Some(("STD", op == ReduceOp::Std)),
            ReduceOp::Argmin | ReduceOp::Argmax | ReduceOp::NanArgmin | ReduceOp::NanArgmax => {
                Some((
                    "ARGMAX",
                    matches!(op, ReduceOp::Argmax | ReduceOp::NanArgmax),
                ))
            }
            ReduceOp::NanMin | ReduceOp::NanMax => Some(("PICK_MAX", op == ReduceOp::NanMax)),
            ReduceOp::Any | ReduceOp::All | ReduceOp::CountNonzero | ReduceOp::Norm0 => {
                Some(("E_FLOAT", op.element_value(self.input).is_float()))
            }
            _ => None,
        };
        if let Some((name, value)) = flag {
            p.push_str(&format!("const {name}: bool = {value};\n"));
        }
        if let Some((max, arg)) = self.pairs_keys() {
            p.push_str(&format!(
                "const KEYS_MAX: bool = {max};\nconst KEYS_ARG: bool = {arg};\n"
            ));
        }
        if self.layout == Layout::Flat {
            p.push_str(&format!(
                "const FLAT_LAST_GROUP: bool = {};\n",
                self.last_group
            ));
        }
        let src = if self.src_state {
            "S"
        } else {
            self.input.wgsl()
        };
        let out = op.output(self.input).wgsl();
        let dst = match (self.dst_final, op.values_per_result()) {
            (false, _) => "S".to_string(),
            (true, 1) => out.to_string(),
            (true, k) => format!("vec{k}<{out}>"),
        };
        p.push_str(&format!("alias SRC = {src};\nalias DST = {dst};\n"));
        p
    }
}

/// The operation's state files: the state type `S` with `identity`, `combine`, `from_elem` and
/// `finalize`, either one file (var/std, the arg states, nanmean, logsumexp, aminmax, the
/// 2-norm) or a scalar operation over the value type `A` with a map from elements to values and
/// a finish.
/// The flat passes that write their states (or rows' results) themselves never call
/// flat_finish (FLAT_LAST_GROUP is false), so they hold none of `axis/flat_finish.wgsl`: a stub.
const FLAT_NO_FINISH: &str =
    "\n// flat_finish is never called in this variant (FLAT_LAST_GROUP is false).\n\
                              fn flat_finish(lid: u32, g: u32, total: S) {}\n";

/// The operations whose flat first pass keeps one state per lane (shaders/axis/flat_lanes.wgsl).
fn flat_lanes(op: ReduceOp) -> bool {
    matches!(
        op,
        ReduceOp::NanSum | ReduceOp::Norm1 | ReduceOp::Any | ReduceOp::All | ReduceOp::CountNonzero
    )
}

fn state_files(op: ReduceOp, v: DType, layout: Layout) -> Vec<&'static str> {
    let whole = match op {
        ReduceOp::Var | ReduceOp::Std => wgsl!("ops/var.wgsl"),
        ReduceOp::Argmin | ReduceOp::Argmax => wgsl!("ops/arg.wgsl"),
        ReduceOp::NanArgmin | ReduceOp::NanArgmax => wgsl!("ops/nan_arg.wgsl"),
        ReduceOp::NanMean => wgsl!("ops/nan_mean.wgsl"),
        ReduceOp::LogSumExp => wgsl!("ops/logsumexp.wgsl"),
        ReduceOp::AMinMax => wgsl!("ops/aminmax.wgsl"),
        ReduceOp::Norm2 => wgsl!("ops/norm2.wgsl"),
        _ => "",
    };
    if !whole.is_empty() {
        return vec![whole];
    }
    let combine = match op {
        ReduceOp::Mean
        | ReduceOp::NanSum
        | ReduceOp::CountNonzero
        | ReduceOp::Norm1
        | ReduceOp::Norm0
        | ReduceOp::NormP
        | ReduceOp::Dot => scalar_hooks(ReduceOp::Sum, v),
        ReduceOp::NanMin | ReduceOp::NanMax => wgsl!("ops/nan_pick.wgsl"),
        ReduceOp::Any | ReduceOp::NormInf => scalar_hooks(ReduceOp::Max, v),
        ReduceOp::All | ReduceOp::NormNegInf => scalar_hooks(ReduceOp::Min, v),
        _ => scalar_hooks(op, v),
    };
    let map = match op {
        ReduceOp::NanSum => wgsl!("axis/map_nan_zero.wgsl"),
        ReduceOp::Any | ReduceOp::All | ReduceOp::CountNonzero | ReduceOp::Norm0 => {
            wgsl!("axis/map_nonzero.wgsl")
        }
        ReduceOp::Norm1 | ReduceOp::NormInf | ReduceOp::NormNegInf => wgsl!("axis/map_abs.wgsl"),
        ReduceOp::NormP => wgsl!("axis/map_abs_pow.wgsl"),
        _ => wgsl!("axis/map_identity.wgsl"),
    };
    let finish = match op {
        ReduceOp::All => wgsl!("ops/flag.wgsl"),
        ReduceOp::Mean if layout == Layout::Segments => wgsl!("ops/mean_segments.wgsl"),
        ReduceOp::Mean => wgsl!("ops/mean.wgsl"),
        ReduceOp::NormP => wgsl!("ops/root_p.wgsl"),
        _ => wgsl!("ops/keep.wgsl"),
    };
    vec![combine, wgsl!("ops/value.wgsl"), map, finish]
}
