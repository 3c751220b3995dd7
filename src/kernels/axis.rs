//! The general `[outer, r, inner]` kernel's variants: every operation, six layouts.

use super::reduce::{identity_expr, scalar_combine};
use super::source::{COMMON_WGSL, REDUCE_AXIS_WGSL, REDUCE_COL_PAIRS_WGSL, REDUCE_FLAT_WGSL};
use super::WORKGROUP_SIZES;
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
    /// First pass of argmin/argmax over a whole f32 array: workgroups stride over vec4 words
    /// comparing integer keys, one state per workgroup (see shaders/reduce_flat.wgsl).
    Flat,
    /// Columns of 16-bit input (first pass, even `inner`): each thread owns two adjacent
    /// columns, the halves of one u32 word.
    ColPairs,
}

impl Layout {
    /// Every layout.
    pub const ALL: [Layout; 6] = [
        Layout::Rows,
        Layout::Cols,
        Layout::RowsWide,
        Layout::ColsWide,
        Layout::Flat,
        Layout::ColPairs,
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
                            for workgroup_size in WORKGROUP_SIZES {
                                let k = AxisVariant {
                                    layout,
                                    op,
                                    input,
                                    src_state,
                                    dst_final,
                                    workgroup_size,
                                };
                                let exists = match layout {
                                    Layout::Flat => k.flat_capable(),
                                    Layout::ColPairs => input.is_half() && !src_state,
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

    /// Whether the flat layout exists for this variant: the first pass (raw f32 input,
    /// states out) of argmin/argmax.
    pub fn flat_capable(&self) -> bool {
        matches!(self.op, ReduceOp::Argmin | ReduceOp::Argmax)
            && self.input == DType::F32
            && !self.src_state
            && !self.dst_final
    }

    /// A short name, e.g. `axis_rows_argmax_f16_raw_state_wg256`.
    pub fn label(&self) -> String {
        format!(
            "axis_{}_{}_{}_{}_{}_wg{}",
            self.layout.name(),
            self.op.name(),
            self.input,
            if self.src_state { "state" } else { "raw" },
            if self.dst_final { "final" } else { "state" },
            self.workgroup_size
        )
    }

    /// Bytes of one state value of this variant's operation and input type.
    pub fn state_bytes(&self) -> u64 {
        self.op.state_bytes()
    }

    /// The full WGSL source of this variant.
    pub fn source(&self) -> String {
        let mut s = self.prelude();
        s.push_str(COMMON_WGSL);
        // The axis source ends with the entry's attribute, so a layout's own functions go
        // before it (module-scope declarations may come in any order).
        match self.layout {
            Layout::Flat => s.push_str(REDUCE_FLAT_WGSL),
            Layout::ColPairs => s.push_str(REDUCE_COL_PAIRS_WGSL),
            _ => {}
        }
        s.push_str(REDUCE_AXIS_WGSL);
        let entry = match self.layout {
            Layout::Rows => "reduce_rows",
            Layout::Cols => "reduce_cols",
            Layout::RowsWide => "rows_wide_entry",
            Layout::ColsWide => "cols_wide_entry",
            Layout::Flat => "reduce_flat",
            Layout::ColPairs => "reduce_col_pairs",
        };
        s.push_str(&format!(
            "fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {{ {entry}(lid, wid); }}\n"
        ));
        s
    }

    fn prelude(&self) -> String {
        let op = self.op;
        // V: the value type the operation works in.
        let v = op.accumulator(self.input);
        let vt = v.wgsl();
        let elem = match self.input {
            DType::F16 => "f16_at(src[k >> 1u], k)".to_string(),
            DType::BF16 => "bf16_at(src[k >> 1u], k)".to_string(),
            _ => format!("{vt}(src[k])"),
        };
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels.rs).\n\
             const WG: u32 = {wg}u;\nconst WG_SHIFT: u32 = {shift}u;\nalias V = {vt};\n",
            label = self.label(),
            wg = self.workgroup_size,
            shift = self.workgroup_size.trailing_zeros(),
        );
        let (load_raw, finalize) = match op {
            ReduceOp::Var | ReduceOp::Std => {
                p.push_str(
                    "struct VarState { n: u32, mean: f32, m2: f32 }\nalias S = VarState;\n\
                     fn identity() -> S { return S(0u, 0.0, 0.0); }\n\
                     // Chan et al.'s parallel combination of two (count, mean, M2) states.\n\
                     fn combine(a: S, b: S) -> S {\n\
                     \x20   if a.n == 0u { return b; }\n\
                     \x20   if b.n == 0u { return a; }\n\
                     \x20   let n = a.n + b.n;\n\
                     \x20   let fa = f32(a.n);\n\
                     \x20   let fb = f32(b.n);\n\
                     \x20   let nt = f32(n);\n\
                     \x20   let d = b.mean - a.mean;\n\
                     \x20   return S(n, a.mean + d * (fb / nt), a.m2 + b.m2 + d * d * (fa * (fb / nt)));\n\
                     }\n",
                );
                let sqrt = if op == ReduceOp::Std { "sqrt" } else { "" };
                (
                    format!("return S(1u, {elem}, 0.0);"),
                    // An infinite element makes the mean infinite or NaN; the variance is then
                    // NaN (as two-pass formulas and PyTorch give), not M2's infinity.
                    format!(
                        "let d = max(f32(s.n) - params.correction, 0.0); \
                         let v = select({sqrt}(s.m2 / d), quiet_nan(), \
                         (bitcast<u32>(s.mean) & 0x7f800000u) == 0x7f800000u); return v;"
                    ),
                )
            }
            ReduceOp::Argmin | ReduceOp::Argmax => {
                let better = if op == ReduceOp::Argmin { "<" } else { ">" };
                let nan_rule = if v.is_float() {
                    "    let an = is_nan(a.v);\n    let bn = is_nan(b.v);\n    \
                     if an || bn {\n        if bn && (!an || b.i < a.i) { return b; }\n        return a;\n    }\n"
                } else {
                    ""
                };
                p.push_str(&format!(
                    "struct ArgState {{ v: V, i: u32 }}\nalias S = ArgState;\n\
                     fn identity() -> S {{ return S({id}, 0xffffffffu); }}\n\
                     // The first NaN wins (PyTorch's rule); then the {what} value; ties go to the\n\
                     // lowest index. A total order, so the result does not depend on the order\n\
                     // of combination.\n\
                     fn combine(a: S, b: S) -> S {{\n{nan_rule}\
                     \x20   if {kb} {better} {ka} {{ return b; }}\n\
                     \x20   if {kb} == {ka} && b.i < a.i {{ return b; }}\n\
                     \x20   return a;\n}}\n",
                    id = identity_expr(op, v),
                    what = if op == ReduceOp::Argmin { "smallest" } else { "largest" },
                    // Floats compare as exact integer keys (see fkey in common.wgsl).
                    kb = if v.is_float() { "fkey(b.v)" } else { "b.v" },
                    ka = if v.is_float() { "fkey(a.v)" } else { "a.v" },
                ));
                (format!("return S({elem}, j);"), "return s.i;".to_string())
            }
            _ => {
                let (combine, _, _) = scalar_combine(op, v);
                p.push_str(&format!(
                    "alias S = V;\nfn identity() -> S {{ return {id}; }}\n\
                     fn combine(a: S, b: S) -> S {{ return {combine}; }}\n",
                    id = identity_expr(op, v),
                ));
                let fin = if op == ReduceOp::Mean {
                    "return s / params.divisor;"
                } else {
                    "return s;"
                };
                (format!("return {elem};"), fin.to_string())
            }
        };
        let src = if self.src_state {
            "S".to_string()
        } else {
            self.input.wgsl().to_string()
        };
        let out = op.output(self.input).wgsl();
        let dst = if self.dst_final { out } else { "S" };
        p.push_str(&format!("alias SRC = {src};\nalias DST = {dst};\n"));
        // Indices are relative to the dispatch's window (see src_base, dst_base, j_base).
        if self.src_state {
            p.push_str("fn load(k0: u32, j: u32) -> S { return src[params.src_base + k0]; }\n");
        } else {
            p.push_str(&format!(
                "fn load(k0: u32, j0: u32) -> S {{ let k = params.src_base + k0; \
                 let j = params.j_base + j0; {load_raw} }}\n"
            ));
        }
        if self.layout == Layout::ColPairs {
            // Both halves of the word at even element k (the planner keeps k even), from one
            // load: two loads of k and k + 1 would cost two load instructions per word.
            let half = if self.input == DType::F16 {
                "f16_at"
            } else {
                "bf16_at"
            };
            let from_word = load_raw.replace(&elem, &format!("{half}(w, h)"));
            p.push_str(&format!(
                "struct Pair {{ a: S, b: S }}\n\
                 fn load_half(w: u32, h: u32, j: u32) -> S {{ {from_word} }}\n\
                 fn load2(k0: u32, j0: u32) -> Pair {{ let k = params.src_base + k0; \
                 let j = params.j_base + j0; let w = src[k >> 1u]; \
                 return Pair(load_half(w, 0u, j), load_half(w, 1u, j)); }}\n"
            ));
        }
        p.push_str(&format!("fn finalize(s: S) -> {out} {{ {finalize} }}\n"));
        if self.layout == Layout::Flat {
            // Argmax: NaN keys beat everything and anything beats i32::MIN; argmin mirrors it.
            let (nan, id, better) = if op == ReduceOp::Argmax {
                ("0x7fffffffi", "(-2147483647i - 1i)", ">")
            } else {
                ("(-2147483647i - 1i)", "0x7fffffffi", "<")
            };
            p.push_str(&format!(
                "@group(0) @binding(0) var<storage, read> src_vec: array<vec4<f32>>;\n\
                 const KEY_NAN: i32 = {nan};\nconst KEY_ID: i32 = {id};\n\
                 fn better4(k: vec4<i32>, best: vec4<i32>) -> vec4<bool> {{ return k {better} best; }}\n"
            ));
        }
        if self.dst_final {
            p.push_str("fn store(o: u32, s: S) { dst[params.dst_base + o] = finalize(s); }\n");
        } else {
            p.push_str(
                "fn store(o: u32, s: S) {\n\
                 \x20   let at = params.dst_base + o;\n\
                 \x20   if (params.flags & 2u) != 0u { dst[at] = combine(dst[at], s); } else { dst[at] = s; }\n\
                 }\n",
            );
        }
        p.push('\n');
        p
    }
}
