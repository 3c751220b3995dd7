//! The scan passes' variants.

use super::source::wgsl;
use super::{compose, key_hooks, scalar_hooks, type_files};
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
    /// Reduce-then-scan of few tiles, last pass: scan each tile, adding the combined unscanned
    /// totals of the tiles before it in its row (no pass scans the totals).
    FusedDownsweep,
    /// Short rows: one invocation scans a whole row, element by element.
    Serial,
}

impl ScanMode {
    /// Every mode.
    pub const ALL: [ScanMode; 6] = [
        ScanMode::Tile,
        ScanMode::Reduce,
        ScanMode::Downsweep,
        ScanMode::Lookback,
        ScanMode::FusedDownsweep,
        ScanMode::Serial,
    ];

    /// Lower-case name, as used in kernel labels.
    pub const fn name(self) -> &'static str {
        match self {
            ScanMode::Tile => "tile",
            ScanMode::Reduce => "reduce",
            ScanMode::Downsweep => "downsweep",
            ScanMode::Lookback => "lookback",
            ScanMode::FusedDownsweep => "fused",
            ScanMode::Serial => "serial",
        }
    }
}

/// Look-back scans of at most this many tiles (2^22 elements at the default workgroup size)
/// keep their states in the context's buffer of zeroes, which the scan's last workgroup clears
/// again (at most 8 stores per invocation), instead of a leased buffer cleared by a fill pass
/// before the scan. A pass fewer: on the H200 a dispatch costs about 3 us of a batch.
pub(crate) const LOOKBACK_CLEAN_TILES: usize = 1024;

/// Words of each of the context's clean states buffers: the look-back states of
/// [`LOOKBACK_CLEAN_TILES`] tiles, or the published states of the flat first pass's one-pass
/// finish (the count, then two words for each of up to three words of state of each of up to
/// [`FLAT_LAST_GROUP_MAX_GROUPS`] workgroups), whichever is more.
pub(crate) const CLEAN_STATE_WORDS: usize = {
    let flat = 1 + 2 * 3 * FLAT_LAST_GROUP_MAX_GROUPS;
    let lookback = lookback_state_words(LOOKBACK_CLEAN_TILES);
    if flat > lookback {
        flat
    } else {
        lookback
    }
};

/// The most workgroups of a flat first pass that finishes in one pass (the default
/// `max_workgroups`).
pub(crate) const FLAT_LAST_GROUP_MAX_GROUPS: usize = 512;

/// How many buffers the context keeps, at most, of each kind that a dispatch writes without
/// sharing data through it (the clean states above, of look-back scans and of one-pass
/// reductions, and the stand-in bound where a kernel has no auxiliary array). wgpu orders two
/// dispatches that write one buffer with a barrier, which on Vulkan and DX12 waits for all the
/// work before it: operations of one recording that share no array would wait for each other
/// through such a buffer if there were only one. Dispatch `i` of a recording takes stand-in
/// `i % INDEPENDENT_SLOTS`, its `j`-th operation in clean states buffer `j % INDEPENDENT_SLOTS`;
/// each buffer is made when a recording first takes it (a clean states buffer is 12 KiB, a
/// stand-in 16 bytes). Past this many, each dispatch meets a buffer an earlier one wrote: with
/// 16, a batch of 100 sums of 2^16 f32 on the H200 took 3.4 µs per sum, where batches of 10
/// sums of 2^14 or 2^18 took 0.8–0.9.
pub(crate) const INDEPENDENT_SLOTS: usize = 256;

/// Words of look-back states for `tiles` tiles: the tile counter, two words per tile, and (for
/// the context's buffer) the count of finished workgroups.
pub(crate) const fn lookback_state_words(tiles: usize) -> usize {
    2 + 2 * tiles
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
    /// rows of one tile ([`ScanMode::Tile`]) and the look-back ([`ScanMode::Lookback`]). It
    /// sets the tile ([`tile`](Self::tile)); the pass over rows of one tile at
    /// [`SCAN_ROW_WORKGROUP`] runs that tile on half as many invocations
    /// ([`invocations`](Self::invocations)).
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
            || (self.workgroup_size == SCAN_ROW_WORKGROUP
                && matches!(self.mode, ScanMode::Tile | ScanMode::Lookback));
        reduce_ok && serial_ok && size_ok
    }

    /// Elements per tile.
    pub fn tile(&self) -> u32 {
        scan_tile_len(self.workgroup_size)
    }

    /// Vec4 slots each invocation holds: [`SCAN_SLOTS`], or twice that in the pass over rows
    /// of one tile at [`SCAN_ROW_WORKGROUP`], which runs its tile on half the invocations (the
    /// smaller tiles keep [`SCAN_SLOTS`]).
    pub fn slots(&self) -> u32 {
        if self.mode == ScanMode::Tile && self.workgroup_size == SCAN_ROW_WORKGROUP {
            2 * SCAN_SLOTS
        } else {
            SCAN_SLOTS
        }
    }

    /// Invocations per workgroup: `tile / (4 * slots)`, which is `workgroup_size` except where
    /// [`slots`](Self::slots) is larger than [`SCAN_SLOTS`].
    pub fn invocations(&self) -> u32 {
        self.tile() / (4 * self.slots())
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
        let v = self.value();
        let op = match self.op {
            ScanOp::Add => ReduceOp::Sum,
            ScanOp::Min => ReduceOp::Min,
            ScanOp::Max => ReduceOp::Max,
        };
        let mut files = Vec::new();
        if self.keyed() {
            files.extend([key_hooks(op), wgsl!("scan/values_keys.wgsl")]);
        } else {
            files.extend(type_files(op, v));
            files.extend([scalar_hooks(op, v), wgsl!("scan/values.wgsl")]);
        }
        files.push(match self.input {
            DType::F16 => wgsl!("scan/load_f16.wgsl"),
            DType::BF16 => wgsl!("scan/load_bf16.wgsl"),
            _ => wgsl!("scan/load_32.wgsl"),
        });
        files.push(if self.access.vec() && self.mode != ScanMode::Reduce {
            wgsl!("scan/store_vec.wgsl")
        } else {
            wgsl!("scan/store_scalar.wgsl")
        });
        files.extend([
            wgsl!("shared/common.wgsl"),
            wgsl!("scan/common.wgsl"),
            wgsl!("scan/passes.wgsl"),
        ]);
        if self.subgroups {
            let inclusive = if self.op == ScanOp::Add {
                wgsl!("scan/subgroup_add.wgsl")
            } else {
                wgsl!("scan/subgroup_shuffle.wgsl")
            };
            files.extend([wgsl!("scan/group_subgroup.wgsl"), inclusive]);
        } else {
            files.extend([wgsl!("scan/group_tree.wgsl")]);
        }
        compose(self.prelude(), &files)
    }

    /// Float min/max scans combine order-preserving integer keys (shaders/scan/values_keys.wgsl).
    fn keyed(&self) -> bool {
        self.op != ScanOp::Add && self.value().is_float()
    }

    /// Constants, types and the input's bindings (their element types substituted).
    fn prelude(&self) -> String {
        let v = self.value();
        let vt = v.wgsl();
        let keyed = self.keyed();
        let mut p = format!(
            "// Variant {label}: generated prelude (src/kernels/scan.rs).\n\
             const WG: u32 = {wg}u;\nconst K: u32 = {slots}u;\nconst TILE: u32 = {tile}u;\n\
             const EXCLUSIVE: bool = {excl};\n\
             const VEC_LOADS: bool = {aligned};\nconst VEC_STORES: bool = {stores};\n\
             const SHIFTED: bool = {shifted};\n\
             // The fallback may publish a total it computed only where every way of computing\n\
             // it gives the same bits (not float sums).\n\
             const PUBLISH_FALLBACK: bool = {publish};\n\
             // R: the values read and written; V: what the scan combines (R, or for float\n\
             // min/max order-preserving integer keys).\n\
             alias R = {vt};\nalias V = {internal};\nalias A = V;\n",
            label = self.label(),
            wg = self.invocations(),
            slots = self.slots(),
            tile = self.tile(),
            excl = self.exclusive,
            aligned = self.access.vec(),
            shifted = self.access == ScanAccess::Shifted,
            stores = self.access.vec() && self.mode != ScanMode::Reduce,
            publish = !(self.op == ScanOp::Add && v.is_float()),
            internal = if keyed { "i32" } else { vt },
        );
        let t = self.input.wgsl();
        let vec_ty = if self.input.is_half() {
            "vec2<u32>".to_string()
        } else {
            format!("vec4<{t}>")
        };
        p.push_str(&format!(
            "@group(0) @binding(0) var<storage, read> src_vec: array<{vec_ty}>;\n\
             @group(0) @binding(1) var<storage, read> src: array<{t}>;\n"
        ));
        // The pass: what the entry (scan/group_*.wgsl) runs, from scan/passes.wgsl.
        let pass = match self.mode {
            ScanMode::Tile => "scan_entry(ln, gr, t, 0u)",
            ScanMode::Reduce => "reduce_entry(ln, gr, t)",
            ScanMode::Downsweep => "scan_entry(ln, gr, t, 2u)",
            ScanMode::Lookback => "lookback_entry(ln, gr)",
            ScanMode::FusedDownsweep => "scan_entry(ln, gr, t, 5u)",
            ScanMode::Serial => "serial_entry(ln, t)",
        };
        p.push_str(&format!(
            "fn run_pass(ln: Lane, gr: Groups, t: u32) {{ {pass}; }}\n"
        ));
        p
    }
}
