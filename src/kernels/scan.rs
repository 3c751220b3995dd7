//! The scan passes' variants.

use super::reduce::{identity_expr, scalar_combine};
use super::source::{
    COMMON_WGSL, SCAN_VEC_SUBGROUP_WGSL, SCAN_VEC_TREE_WGSL, SCAN_VEC_WGSL, SCAN_WGSL,
};
use super::{SCAN_ROW_WORKGROUP, WORKGROUP_SIZES};
use crate::element::DType;
use crate::ops::{ReduceOp, ScanOp};

/// Which pass of a scan a [`ScanVariant`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScanMode {
    /// Each tile is a whole row unit: scan it, no carry (one pass for short rows).
    Tile,
    /// Reduce-then-scan, first pass: each tile's total.
    Reduce,
    /// Reduce-then-scan, last pass: scan each tile, adding the scanned totals of the tiles
    /// before it (read from the auxiliary binding).
    Downsweep,
    /// Single pass: decoupled look-back with fallback.
    Lookback,
    /// Short rows: one invocation scans a whole row, element by element.
    Serial,
}

impl ScanMode {
    /// Every mode.
    pub const ALL: [ScanMode; 5] = [
        ScanMode::Tile,
        ScanMode::Reduce,
        ScanMode::Downsweep,
        ScanMode::Lookback,
        ScanMode::Serial,
    ];

    /// Lower-case name, as used in kernel labels.
    pub const fn name(self) -> &'static str {
        match self {
            ScanMode::Tile => "tile",
            ScanMode::Reduce => "reduce",
            ScanMode::Downsweep => "downsweep",
            ScanMode::Lookback => "lookback",
            ScanMode::Serial => "serial",
        }
    }

    const fn code(self) -> u32 {
        match self {
            ScanMode::Tile => 0,
            ScanMode::Reduce => 1,
            ScanMode::Downsweep => 2,
            ScanMode::Lookback => 3,
            ScanMode::Serial => 4,
        }
    }
}

/// Vec4 slots each thread of a scan holds (a tile is `workgroup_size * 4 * SCAN_SLOTS` elements).
pub const SCAN_SLOTS: u32 = 4;

/// Elements per scan tile at `workgroup_size` invocations.
pub fn scan_tile_len(workgroup_size: u32) -> u32 {
    workgroup_size * 4 * SCAN_SLOTS
}

/// How a scan pass's tiles load and store their slots of 4 elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScanAccess {
    /// Element by element (a buffer is not padded to 16 bytes).
    Scalar,
    /// vec4 loads and stores; every tile starts where its slots do (rows on 16-byte boundaries).
    Vec,
    /// vec4 loads and stores for rows that may start off a 16-byte boundary (their length is not
    /// a multiple of 4): tiled from the boundary before the row, its edges masked (`tile_geo` in
    /// shaders/scan.wgsl).
    Shifted,
}

impl ScanAccess {
    /// Every kind.
    pub const ALL: [ScanAccess; 3] = [ScanAccess::Scalar, ScanAccess::Vec, ScanAccess::Shifted];

    fn vec(self) -> bool {
        self != ScanAccess::Scalar
    }

    fn name(self) -> &'static str {
        match self {
            ScanAccess::Scalar => "scalar",
            ScanAccess::Vec => "vec",
            ScanAccess::Shifted => "shift",
        }
    }
}

/// One specialisation of the tile scan (`shaders/scan.wgsl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScanVariant {
    /// The scan's operation.
    pub op: ScanOp,
    /// Element type read (f32, i32, u32, f16, bf16); values are f32, i32 or u32.
    pub input: DType,
    /// Which pass.
    pub mode: ScanMode,
    /// Exclusive (else inclusive) output.
    pub exclusive: bool,
    /// How tiles reach memory.
    pub access: ScanAccess,
    /// Workgroup size, one of [`WORKGROUP_SIZES`], or [`SCAN_ROW_WORKGROUP`] for the pass over
    /// rows of one tile ([`ScanMode::Tile`]).
    pub workgroup_size: u32,
    /// Subgroup operations for the group step.
    pub subgroups: bool,
}

impl ScanVariant {
    /// Every variant the library can build.
    pub fn all() -> Vec<ScanVariant> {
        let mut v = Vec::new();
        for op in ScanOp::ALL {
            for input in DType::ALL {
                for mode in ScanMode::ALL {
                    for exclusive in [false, true] {
                        for access in ScanAccess::ALL {
                            for workgroup_size in
                                WORKGROUP_SIZES.into_iter().chain([SCAN_ROW_WORKGROUP])
                            {
                                for subgroups in [false, true] {
                                    let k = ScanVariant {
                                        op,
                                        input,
                                        mode,
                                        exclusive,
                                        access,
                                        workgroup_size,
                                        subgroups,
                                    };
                                    if k.is_valid() {
                                        v.push(k);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        v
    }

    /// Whether this combination is one the library builds.
    pub fn is_valid(&self) -> bool {
        // The tile total is inclusive by nature; a serial pass needs neither vec4 access nor
        // subgroups.
        let reduce_ok = self.mode != ScanMode::Reduce || !self.exclusive;
        let serial_ok =
            self.mode != ScanMode::Serial || (self.access == ScanAccess::Scalar && !self.subgroups);
        let size_ok = WORKGROUP_SIZES.contains(&self.workgroup_size)
            || (self.workgroup_size == SCAN_ROW_WORKGROUP && self.mode == ScanMode::Tile);
        reduce_ok && serial_ok && size_ok
    }

    /// Elements per tile.
    pub fn tile(&self) -> u32 {
        scan_tile_len(self.workgroup_size)
    }

    /// The value (and output) type.
    pub fn value(&self) -> DType {
        self.op.output(self.input)
    }

    /// A short name, e.g. `scan_lookback_add_f32_incl_vec_wg256_sg`.
    pub fn label(&self) -> String {
        format!(
            "scan_{}_{}_{}_{}_{}_wg{}{}",
            self.mode.name(),
            self.op.name(),
            self.input,
            if self.exclusive { "excl" } else { "incl" },
            self.access.name(),
            self.workgroup_size,
            if self.subgroups { "_sg" } else { "" }
        )
    }

    /// The full WGSL source of this variant.
    pub fn source(&self) -> String {
        let mut s = self.prelude();
        s.push_str(COMMON_WGSL);
        s.push_str(SCAN_WGSL);
        s.push_str(SCAN_VEC_WGSL);
        s.push_str(if self.subgroups {
            SCAN_VEC_SUBGROUP_WGSL
        } else {
            SCAN_VEC_TREE_WGSL
        });
        let (lane, groups) = if self.subgroups {
            ("Lane(lid, sg_id, sg_lane)", "Groups(sg_size, n_sg)")
        } else {
            ("Lane(lid, 0u, lid)", "Groups(WG, 1u)")
        };
        let builtins = if self.subgroups {
            ",\n    @builtin(subgroup_invocation_id) sg_lane: u32,\n    \
             @builtin(subgroup_size) sg_size: u32,\n    @builtin(subgroup_id) sg_id: u32,\n    \
             @builtin(num_subgroups) n_sg: u32"
        } else {
            ""
        };
        let call = match self.mode {
            ScanMode::Reduce => "reduce_entry(ln, gr, t)".to_string(),
            ScanMode::Serial => "serial_entry(ln, t)".to_string(),
            ScanMode::Lookback => "lookback_entry(ln, gr)".to_string(),
            m => format!("scan_entry(ln, gr, t, {}u)", m.code()),
        };
        s.push_str(&format!(
            "\n@compute @workgroup_size(WG)\nfn main(\n    \
             @builtin(local_invocation_index) lid: u32,\n    \
             @builtin(workgroup_id) wid: vec3<u32>{builtins},\n) {{\n    \
             let ln = {lane};\n    let gr = {groups};\n    \
             let t = wid.y * params.groups_x + wid.x;\n    {call};\n}}\n"
        ));
        s
    }

    fn prelude(&self) -> String {
        let v = self.value();
        let vt = v.wgsl();
        // Float min/max scan keys (see scan_keys): one integer min/max per combine instead of
        // two exact float keys and two NaN tests, which made these scans ALU-bound.
        let keyed = self.op != ScanOp::Add && v.is_float();
        let half = self.input.is_half();
        let t = self.input.wgsl();
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels.rs).\n\
             const WG: u32 = {wg}u;\nconst K: u32 = {slots}u;\nconst TILE: u32 = {tile}u;\n\
             const EXCLUSIVE: bool = {excl};\n\
             const VEC_LOADS: bool = {aligned};\nconst VEC_STORES: bool = {stores};\n\
             const SHIFTED: bool = {shifted};\n\
             // The fallback may publish a total it computed only where every way of computing\n\
             // it gives the same bits (not float sums).\n\
             const PUBLISH_FALLBACK: bool = {publish};\n\
             // R: the values read and written; V: what the scan combines (R, or for float\n\
             // min/max order-preserving integer keys).\n\
             alias R = {vt};\nalias V = {internal};\n",
            label = self.label(),
            wg = self.workgroup_size,
            slots = SCAN_SLOTS,
            tile = self.tile(),
            excl = self.exclusive,
            aligned = self.access.vec(),
            shifted = self.access == ScanAccess::Shifted,
            stores = self.access.vec() && self.mode != ScanMode::Reduce,
            publish = !(self.op == ScanOp::Add && v.is_float()),
            internal = if keyed { "i32" } else { vt },
        );
        let reduce_op = match self.op {
            ScanOp::Add => ReduceOp::Sum,
            ScanOp::Min => ReduceOp::Min,
            ScanOp::Max => ReduceOp::Max,
        };
        if keyed {
            p.push_str(&scan_keys(self.op));
        } else {
            let (combine, combine4, _) = scalar_combine(reduce_op, v);
            p.push_str(&format!(
                "fn identity_v() -> V {{ return {id}; }}\n\
                 fn combine_v(a: V, b: V) -> V {{ return {combine}; }}\n\
                 fn combine_v4(a: vec4<V>, b: vec4<V>) -> vec4<V> {{ return {combine4}; }}\n\
                 fn in_v(x: R) -> V {{ return x; }}\n\
                 fn in_v4(x: vec4<R>) -> vec4<V> {{ return x; }}\n\
                 fn out_v(v: V) -> R {{ return v; }}\n\
                 fn out_v4(v: vec4<V>) -> vec4<R> {{ return v; }}\n",
                id = identity_expr(reduce_op, v),
            ));
        }
        let (vec_ty, load_elem, load_slot) = match self.input {
            DType::F16 => (
                "vec2<u32>",
                "return f16_at(src[e >> 1u], e);",
                "return f16_four(src_vec[q]);",
            ),
            DType::BF16 => (
                "vec2<u32>",
                "return bf16_at(src[e >> 1u], e);",
                "let w = src_vec[q]; return bitcast<vec4<f32>>(vec4<u32>(w.x << 16u, w.x & 0xffff0000u, w.y << 16u, w.y & 0xffff0000u));",
            ),
            _ => ("", "return R(src[e]);", "return vec4<R>(src_vec[q]);"),
        };
        let vec_ty = if half {
            vec_ty.to_string()
        } else {
            format!("vec4<{t}>")
        };
        p.push_str(&format!(
            "@group(0) @binding(0) var<storage, read> src_vec: array<{vec_ty}>;\n\
             @group(0) @binding(1) var<storage, read> src: array<{t}>;\n\
             fn raw_elem(e: u32) -> R {{ {load_elem} }}\n\
             fn raw_slot(q: u32) -> vec4<R> {{ {load_slot} }}\n\
             fn load_elem(e: u32) -> V {{ return in_v(raw_elem(e)); }}\n\
             fn load_slot(q: u32) -> vec4<V> {{ return in_v4(raw_slot(q)); }}\n"
        ));
        if self.access.vec() && self.mode != ScanMode::Reduce {
            p.push_str(
                "@group(0) @binding(2) var<storage, read_write> dst: array<vec4<R>>;\n\
                 fn store_elem(e: u32, v: V) { dst[e >> 2u][e & 3u] = out_v(v); }\n\
                 fn store_slot(q: u32, v: vec4<V>) { dst[q] = out_v4(v); }\n",
            );
        } else {
            p.push_str(
                "@group(0) @binding(2) var<storage, read_write> dst: array<R>;\n\
                 fn store_elem(e: u32, v: V) { dst[e] = out_v(v); }\n\
                 fn store_slot(q: u32, v: vec4<V>) { let r = out_v4(v); for (var c = 0u; c < 4u; c += 1u) { dst[4u * q + c] = r[c]; } }\n",
            );
        }
        if self.subgroups {
            let body = if self.op == ScanOp::Add {
                "return subgroupInclusiveAdd(v);".to_string()
            } else {
                "var x = v; for (var d = 1u; d < size; d <<= 1u) { let o = subgroupShuffleUp(x, d); if lane >= d { x = combine_v4(o, x); } } return x;".to_string()
            };
            p.push_str(&format!(
                "fn subgroup_inclusive4(v: vec4<V>, lane: u32, size: u32) -> vec4<V> {{ {body} }}\n"
            ));
        }
        p.push('\n');
        p
    }
}

/// WGSL for float min/max scans: values are combined as order-preserving i32 keys (`i ^ ((i >>
/// 31) & 0x7fffffff)`, its own inverse, as in the whole-array kernel's `thread_state`). A NaN
/// read becomes the quiet NaN whose key lies beyond every other (positive for max, negative for
/// min), so it propagates from its position on through plain integer max/min; results leave
/// as the canonical quiet NaN 0x7fc00000. Keys order -0.0 below +0.0 (IEEE 754-2019 minimum
/// and maximum): a max of -0.0 and +0.0 is +0.0, a min -0.0, in either order.
fn scan_keys(op: ScanOp) -> String {
    let (f, nan, id) = if op == ScanOp::Max {
        ("max", "0x7fc00000u", "0x807fffffu")
    } else {
        ("min", "0xffc00000u", "0x7f800000u")
    };
    format!(
        "fn identity_v() -> V {{ return bitcast<i32>({id}); }}\n\
         fn combine_v(a: V, b: V) -> V {{ return {f}(a, b); }}\n\
         fn combine_v4(a: vec4<V>, b: vec4<V>) -> vec4<V> {{ return {f}(a, b); }}\n\
         fn in_v(x: R) -> V {{\n    \
             let b = bitcast<u32>(x);\n    \
             let i = bitcast<i32>(select(b, {nan}, (b & 0x7fffffffu) > 0x7f800000u));\n    \
             return i ^ ((i >> 31u) & 0x7fffffff);\n}}\n\
         fn in_v4(x: vec4<R>) -> vec4<V> {{\n    \
             let b = bitcast<vec4<u32>>(x);\n    \
             let n = (b & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);\n    \
             let i = bitcast<vec4<i32>>(select(b, vec4<u32>({nan}), n));\n    \
             return i ^ ((i >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff));\n}}\n\
         fn out_v(v: V) -> R {{\n    \
             let b = bitcast<u32>(v ^ ((v >> 31u) & 0x7fffffff));\n    \
             return bitcast<R>(select(b, 0x7fc00000u, (b & 0x7fffffffu) > 0x7f800000u));\n}}\n\
         fn out_v4(v: vec4<V>) -> vec4<R> {{\n    \
             let b = bitcast<vec4<u32>>(v ^ ((v >> vec4<u32>(31u)) & vec4<i32>(0x7fffffff)));\n    \
             let n = (b & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);\n    \
             return bitcast<vec4<R>>(select(b, vec4<u32>(0x7fc00000u), n));\n}}\n"
    )
}
