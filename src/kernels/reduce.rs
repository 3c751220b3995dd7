//! The whole-array kernel's variants (sum, prod, min, max, mean).

use super::source::{COMMON_WGSL, REDUCE_SUBGROUP_WGSL, REDUCE_TREE_WGSL, REDUCE_WGSL};
use super::WORKGROUP_SIZES;
use crate::element::DType;
use crate::ops::ReduceOp;

/// One specialisation of the whole-array kernel (sum, prod, min, max, mean).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReduceVariant {
    /// Element type read from memory.
    pub input: DType,
    /// The reduction; one of sum, prod, min, max, mean.
    pub op: ReduceOp,
    /// Workgroup size, one of [`WORKGROUP_SIZES`].
    pub workgroup_size: u32,
    /// Use subgroup operations for the workgroup step.
    pub subgroups: bool,
}

impl ReduceVariant {
    /// Every variant the library can build.
    pub fn all() -> Vec<ReduceVariant> {
        let mut v = Vec::new();
        for input in DType::ALL {
            for op in ReduceOp::ALL.into_iter().filter(|op| op.is_simple()) {
                for workgroup_size in WORKGROUP_SIZES {
                    for subgroups in [false, true] {
                        v.push(ReduceVariant {
                            input,
                            op,
                            workgroup_size,
                            subgroups,
                        });
                    }
                }
            }
        }
        v
    }

    /// The accumulator type (f32 for mean and for 16-bit floats, else the input type).
    pub fn accumulator(&self) -> DType {
        self.op.accumulator(self.input)
    }

    /// A short name, e.g. `reduce_sum_f32_wg256_sg`.
    pub fn label(&self) -> String {
        format!(
            "reduce_{}_{}_wg{}{}",
            self.op.name(),
            self.input,
            self.workgroup_size,
            if self.subgroups { "_sg" } else { "" }
        )
    }

    /// The full WGSL source of this variant.
    pub fn source(&self) -> String {
        let mut s = self.prelude();
        s.push_str(COMMON_WGSL);
        s.push_str(REDUCE_WGSL);
        s.push_str(if self.subgroups {
            REDUCE_SUBGROUP_WGSL
        } else {
            REDUCE_TREE_WGSL
        });
        s
    }

    fn prelude(&self) -> String {
        let t = self.input.wgsl();
        let acc = self.accumulator();
        let a = acc.wgsl();
        let (load4, load_elem, epv) = match self.input {
            DType::F16 => (
                "return combine4(f16_lo4(x), f16_hi4(x));",
                "return f16_at(src[t >> 1u], t);",
                8,
            ),
            DType::BF16 => (
                "return combine4(bf16_lo4(x), bf16_hi4(x));",
                "return bf16_at(src[t >> 1u], t);",
                8,
            ),
            _ => ("return vec4<A>(x);", "return A(src[t]);", 4),
        };
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels.rs).\n\
             alias T = {t};\nalias A = {a};\nconst WG: u32 = {wg}u;\n\
             // Elements per vec4 word of the input.\nconst EPV: u32 = {epv}u;\n\
             fn load4(x: vec4<T>) -> vec4<A> {{ {load4} }}\n\
             fn load_elem(t: u32) -> A {{ {load_elem} }}\n\
             fn identity() -> A {{ return {id}; }}\n",
            label = self.label(),
            wg = self.workgroup_size,
            id = identity_expr(self.op, acc),
        );
        let (combine, combine4, subgroup) = scalar_combine(self.op, acc);
        p.push_str(&format!(
            "fn combine(a: A, b: A) -> A {{ return {combine}; }}\n\
             fn combine4(a: vec4<A>, b: vec4<A>) -> vec4<A> {{ return {combine4}; }}\n"
        ));
        p.push_str(&thread_state(self.op, self.input));
        if self.op == ReduceOp::Mean {
            p.push_str(
                "fn finalize(a: A) -> A { if (params.flags & 1u) != 0u { return a / params.divisor; } return a; }\n",
            );
        } else {
            p.push_str("fn finalize(a: A) -> A { return a; }\n");
        }
        if self.subgroups {
            p.push_str(&format!(
                "fn subgroup_combine(a: A) -> A {{ return {subgroup}; }}\n"
            ));
        }
        p.push('\n');
        p
    }
}

/// WGSL of a thread's running state `S` in the whole-array kernel (see shaders/reduce.wgsl).
///
/// Most operations keep `vec4<A>` and `combine4`. f32 min/max keep order-preserving signed
/// integer keys instead (`i ^ ((i >> 31) & 0x7fffffff)`, its own inverse: three integer
/// operations and a max per element) plus the largest magnitude bits seen, which exceed
/// +inf's exactly when a NaN was read: a third of the work of comparing exact float keys
/// element by element, which made these passes ALU-bound on the H200. Keys order -0.0 below
/// +0.0, so a thread's min/max of zeros may be either zero (both are exact answers).
fn thread_state(op: ReduceOp, input: DType) -> String {
    let keyed = input == DType::F32 && matches!(op, ReduceOp::Min | ReduceOp::Max);
    if !keyed {
        return "alias S = vec4<A>;\n\
                fn s_identity() -> S { return vec4<A>(identity()); }\n\
                fn s_add(s: S, x: vec4<T>) -> S { return combine4(s, load4(x)); }\n\
                fn s_merge(a: S, b: S) -> S { return combine4(a, b); }\n\
                fn s_finish(v: S) -> A { return combine(combine(v.x, v.y), combine(v.z, v.w)); }\n"
            .into();
    }
    // Identity: the key of +inf (min) or -inf (max).
    let (f, id) = if op == ReduceOp::Min {
        ("min", "0x7f800000i")
    } else {
        ("max", "(-2139095041i)")
    };
    format!(
        "struct S {{ k: vec4<i32>, m: vec4<u32> }}\n\
         fn okey4(x: vec4<f32>) -> vec4<i32> {{ let i = bitcast<vec4<i32>>(x); \
         return i ^ ((i >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff)); }}\n\
         fn s_identity() -> S {{ return S(vec4<i32>({id}), vec4<u32>(0u)); }}\n\
         fn s_add(s: S, x: vec4<T>) -> S {{ \
         return S({f}(s.k, okey4(x)), max(s.m, bitcast<vec4<u32>>(x) & vec4<u32>(0x7fffffffu))); }}\n\
         fn s_merge(a: S, b: S) -> S {{ return S({f}(a.k, b.k), max(a.m, b.m)); }}\n\
         fn s_finish(s: S) -> A {{ \
         let k = {f}({f}(s.k.x, s.k.y), {f}(s.k.z, s.k.w)); \
         let m = max(max(s.m.x, s.m.y), max(s.m.z, s.m.w)); \
         return select(bitcast<f32>(k ^ ((k >> 31u) & 0x7fffffff)), quiet_nan(), m > 0x7f800000u); }}\n"
    )
}

/// WGSL bodies of `combine(a, b)`, `combine4(a, b)` and `subgroup_combine(a)` for a scalar
/// operation (sum, prod, min, max, mean) over accumulator type `acc`.
pub(super) fn scalar_combine(op: ReduceOp, acc: DType) -> (String, String, String) {
    match op {
        ReduceOp::Prod => ("a * b".into(), "a * b".into(), "subgroupMul(a)".into()),
        ReduceOp::Min | ReduceOp::Max => {
            let (f, sg) = if op == ReduceOp::Min {
                ("min", "subgroupMin")
            } else {
                ("max", "subgroupMax")
            };
            let f = if acc.is_float() {
                format!("f{f}")
            } else {
                f.to_string()
            };
            if acc.is_float() {
                // NaN propagates: WGSL's min/max may drop a NaN operand, so test bits (a bit
                // test also survives fast-math compilation, unlike `x != x`). A subgroup
                // min/max may drop NaNs too, hence the subgroupAny. Values are compared as
                // order-preserving integer keys, so subnormals are never flushed to zero.
                (
                    format!("select(select({f}_exact(a, b), b, is_nan(b)), a, is_nan(a))"),
                    format!("select(select({f}4_exact(a, b), b, is_nan4(b)), a, is_nan4(a))"),
                    format!(
                        "select(from_fkey({sg}(fkey(a))), quiet_nan(), subgroupAny(is_nan(a)))"
                    ),
                )
            } else {
                (
                    format!("{f}(a, b)"),
                    format!("{f}(a, b)"),
                    format!("{sg}(a)"),
                )
            }
        }
        _ => ("a + b".into(), "a + b".into(), "subgroupAdd(a)".into()),
    }
}

/// WGSL expression for the identity of a scalar `op` over accumulator type `acc`.
pub(super) fn identity_expr(op: ReduceOp, acc: DType) -> &'static str {
    match (op, acc.is_float(), acc) {
        (ReduceOp::Prod, true, _) => "1.0",
        (ReduceOp::Prod, _, DType::I32) => "1i",
        (ReduceOp::Prod, _, _) => "1u",
        (ReduceOp::Min | ReduceOp::Argmin, true, _) => "pos_inf()",
        (ReduceOp::Min | ReduceOp::Argmin, _, DType::I32) => "2147483647i",
        (ReduceOp::Min | ReduceOp::Argmin, _, _) => "0xffffffffu",
        (ReduceOp::Max | ReduceOp::Argmax, true, _) => "neg_inf()",
        (ReduceOp::Max | ReduceOp::Argmax, _, DType::I32) => "(-2147483647i - 1i)",
        (ReduceOp::Max | ReduceOp::Argmax, _, _) => "0u",
        (_, true, _) => "0.0",
        (_, _, DType::I32) => "0i",
        (_, _, _) => "0u",
    }
}
