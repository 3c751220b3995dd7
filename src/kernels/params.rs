//! Typed kernel parameters: one `#[repr(C)]` [`Pod`](bytemuck::Pod) struct per kernel family,
//! mirrored field by field by the `Params` struct of its WGSL file, and the flag bits both sides
//! name. A test (tests/shaders.rs) reads each WGSL struct and flag constant back through naga and
//! compares names, offsets, types and values with [`KernelParams::FIELDS`] and
//! [`KernelParams::FLAGS`], so a slot or a bit that differs cannot pass.

/// Size of the parameter uniform every kernel reads.
pub const PARAMS_BYTES: u64 = 64;

/// Which kernel family a parameter struct belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// [`super::Kernel::Reduce`], shaders/reduce.wgsl.
    Reduce,
    /// [`super::Kernel::Axis`], shaders/reduce_axis.wgsl.
    Axis,
    /// [`super::Kernel::Scan`], shaders/scan.wgsl.
    Scan,
    /// [`super::Kernel::Pack`], shaders/pack.wgsl.
    Pack,
    /// [`super::Kernel::Fill`], shaders/fill.wgsl.
    Fill,
    /// [`super::Kernel::Sort`], shaders/sort/.
    Sort,
    /// [`super::Kernel::Compact`], shaders/compact/.
    Compact,
}

/// A kernel family's parameters: 64 bytes, the uniform at binding 3.
pub trait KernelParams: bytemuck::Pod {
    /// The family whose kernels read these parameters.
    const FAMILY: Family;
    /// The WGSL struct that mirrors this one.
    const WGSL_STRUCT: &'static str;
    /// Each field: name, byte offset and type (`u32`, `f32`, or `[u32; N]` for padding).
    const FIELDS: &'static [(&'static str, usize, &'static str)];
    /// Each flag bit of the `flags` field: the WGSL constant's name and its value.
    const FLAGS: &'static [(&'static str, u32)];

    /// The uniform's words.
    fn words(&self) -> [u32; 16] {
        bytemuck::cast(*self)
    }
}

/// Declares a parameter struct, its field table and its flags.
macro_rules! kernel_params {
    (
        $(#[$meta:meta])*
        $name:ident: $family:ident, $wgsl:literal,
        flags { $($(#[$fmeta:meta])* $flag:ident = $value:expr),* $(,)? }
        { $($(#[$field_meta:meta])* $field:ident: $ty:ty),* $(,)? }
    ) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Debug, Clone, Copy, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl $name {
            $($(#[$fmeta])* pub const $flag: u32 = $value;)*
        }

        impl KernelParams for $name {
            const FAMILY: Family = Family::$family;
            const WGSL_STRUCT: &'static str = $wgsl;
            const FIELDS: &'static [(&'static str, usize, &'static str)] =
                &[$((stringify!($field), std::mem::offset_of!($name, $field), stringify!($ty)),)*];
            const FLAGS: &'static [(&'static str, u32)] = &[$((stringify!($flag), $value),)*];
        }

        const _: () = assert!(std::mem::size_of::<$name>() == PARAMS_BYTES as usize);
    };
}

kernel_params! {
    /// The whole-array kernel (`Params` in shaders/reduce.wgsl).
    ReduceParams: Reduce, "Params",
    flags {
        /// This pass writes final results (mean divides by `divisor`).
        FINAL = 1,
        /// The last workgroup to finish combines every workgroup's value (published in the
        /// auxiliary array, the context's clean states) and writes the one result.
        LAST_GROUP = 2,
        /// Testing aid: published values are never seen, so the last workgroup computes them
        /// all again.
        HIDE_PARTIALS = 4,
    }
    {
        /// Elements in the input.
        n: u32,
        /// Full vec4 words in the input (`n / elements per word`).
        n_vec: u32,
        /// Workgroups in this dispatch.
        num_groups: u32,
        /// See the flag constants.
        flags: u32,
        /// Mean's divisor: the element count of the whole reduction.
        divisor: f32,
        /// Index of this dispatch's first output in `dst`.
        dst_base: u32,
        /// LAST_GROUP: reads of a published value not visible yet before the last workgroup
        /// computes it again.
        spin_limit: u32,
        /// Padding.
        pad2: u32,
        /// Padding to 64 bytes.
        pad: [u32; 8],
    }
}

kernel_params! {
    /// The general `[outer, r, inner]` kernel (`AxisParams` in shaders/reduce_axis.wgsl).
    AxisParams: Axis, "AxisParams",
    flags {
        /// This pass writes final results (applies `finalize`).
        FINAL = 1,
        /// Each output is combined with the state already in `dst` (pieces of a long axis).
        ACCUMULATE = 2,
        /// Testing aid (the flat layout's one-pass finish): published states are never seen, so
        /// the last workgroup computes them all again.
        HIDE_PARTIALS = 4,
        /// Segments layout: the dispatch that finishes the long segments from the states of
        /// the blocks of the values.
        SEGMENT_LONG = 8,
    }
    {
        /// Product of the dimensions before the reduced one.
        outer: u32,
        /// Length of the reduced axis in this pass.
        r: u32,
        /// Product of the dimensions after it.
        inner: u32,
        /// Workgroups the reduced axis is split over.
        splits: u32,
        /// Elements of the reduced axis per split.
        chunk: u32,
        /// Column tiles per outer index (column layouts).
        tiles: u32,
        /// log2 of the threads per row (rows) or columns per workgroup (columns).
        lanes_shift: u32,
        /// Workgroups per split in this dispatch.
        groups: u32,
        /// Width of the dispatch grid.
        groups_x: u32,
        /// See the flag constants.
        flags: u32,
        /// Mean's divisor (elements reduced in all).
        divisor: f32,
        /// Var/std's correction.
        correction: f32,
        /// Elements of `src` before index 0 of this dispatch's view.
        src_base: u32,
        /// Elements of `dst` before index 0 of this dispatch's view.
        dst_base: u32,
        /// Reduced-axis index of the view's row 0 (argmin/argmax report whole-axis indices).
        j_base: u32,
        /// The p-norm's p.
        power: f32,
    }
}

kernel_params! {
    /// A scan pass (`Params` in shaders/scan.wgsl).
    ScanParams: Scan, "Params",
    flags {
        /// Look-back: every tile takes the fallback (tests).
        FORCE_FALLBACK = 1,
        /// Look-back: tiles publish only aggregates, never inclusive prefixes (tests).
        AGGREGATES_ONLY = 2,
        /// Look-back: every third tile hides its state, so others fall back (tests).
        HIDE_SOME = 4,
        /// Reduce-then-scan: contiguous runs of tiles, the downsweep from the end.
        REVERSED_RUNS = 32,
        /// Reduce-then-scan of one row in two passes: runs of tiles, one total per run.
        RUN_TOTALS = 64,
        /// Look-back in the context's zeroed states: the last workgroup clears them.
        SELF_CLEAN = 128,
    }
    {
        /// Elements in all rows.
        total: u32,
        /// Tiles per row.
        tpr: u32,
        /// Row length.
        len: u32,
        /// Rows.
        rows: u32,
        /// Tiles in all rows.
        n_tiles: u32,
        /// Look-back steps before a tile falls back.
        spin_limit: u32,
        /// See the flag constants.
        flags: u32,
        /// Width of the dispatch grid.
        groups_x: u32,
        /// Workgroups in this dispatch.
        groups: u32,
        /// Padding.
        pad1: u32,
        /// Padding.
        pad2: u32,
        /// Padding.
        pad3: u32,
        /// Padding to 64 bytes.
        pad: [u32; 4],
    }
}

kernel_params! {
    /// The f32 → 16-bit conversion (`PackParams` in shaders/pack.wgsl).
    PackParams: Pack, "PackParams",
    flags {}
    {
        /// f32 values to convert.
        n: u32,
        /// Width of the dispatch grid.
        groups_x: u32,
        /// Padding.
        pad0: u32,
        /// Padding.
        pad1: u32,
        /// Padding to 64 bytes.
        pad: [u32; 12],
    }
}

kernel_params! {
    /// The fill kernel (`FillParams` in shaders/fill.wgsl).
    FillParams: Fill, "FillParams",
    flags {}
    {
        /// Words to set.
        n: u32,
        /// Width of the dispatch grid.
        groups_x: u32,
        /// The value written.
        value: u32,
        /// Padding.
        pad0: u32,
        /// Padding to 64 bytes.
        pad: [u32; 12],
    }
}

kernel_params! {
    /// The radix sort's passes (`SortParams` in shaders/sort/common.wgsl).
    SortParams: Sort, "SortParams",
    flags {
        /// Keys are i32 bits.
        SORT_I32 = 1,
        /// Keys are f32 bits.
        SORT_F32 = 2,
        /// Largest first.
        SORT_DESCENDING = 4,
        /// The values are the keys' indices (an argsort's first pass).
        SORT_IOTA = 8,
        /// Keys are f16 bits (the low 16 of each word).
        SORT_F16 = 16,
        /// Keys are bf16 bits (the low 16 of each word).
        SORT_BF16 = 32,
        /// A pass of the rows' digits (the digit of the row of each key's index).
        SORT_ROWS = 64,
        /// The gather writes each index's place in its row instead of a value.
        SORT_MOD = 128,
        /// The radix select's compaction writes only each row's k-th key.
        SORT_KTH = 256,
        /// A short rows' sort moves the values at the keys' indices with them.
        SORT_PAIRS = 512,
        /// The scatter sorts a row a workgroup, counting its digits itself.
        SORT_LOCAL_ROWS = 1024,
    }
    {
        /// Keys.
        n: u32,
        /// Tiles of `SORT_TILE` keys, one workgroup each.
        tiles: u32,
        /// Width of the dispatch grid.
        groups_x: u32,
        /// The digit's lowest bit.
        shift: u32,
        /// `SORT_*` bits.
        flags: u32,
        /// Keys per row.
        len: u32,
        /// Keys taken per row (radix select).
        k: u32,
        /// Tiles per row (radix select: tiles do not cross rows).
        row_tiles: u32,
        /// The first tile of the piece bound (a sort beyond one binding, in pieces).
        tile_base: u32,
        /// The index of the piece's first key in the array.
        index_base: u32,
        /// The first place of the output's piece bound (the scatter writes only its places).
        dst_base: u32,
        /// Places in the output's piece bound.
        dst_len: u32,
        /// Padding to 64 bytes.
        pad: [u32; 4],
    }
}

kernel_params! {
    /// Compaction, runs and histograms (`CompactParams` in shaders/compact/common.wgsl).
    CompactParams: Compact, "CompactParams",
    flags {
        /// Keeps the elements whose mask word is not 0.
        COMPACT_MASK = 1,
        /// Keeps the elements that are not zero.
        COMPACT_NONZERO = 2,
        /// Keeps the first element and each that differs from the one before it.
        COMPACT_CHANGES = 4,
        /// Elements are f32.
        COMPACT_F32 = 8,
        /// Elements are 16-bit floats, two to a word.
        COMPACT_HALF = 16,
        /// 16-bit elements are bf16 (else f16).
        COMPACT_BF16 = 32,
        /// Elements are i32.
        COMPACT_I32 = 64,
        /// The scatter writes the kept elements' bits.
        COMPACT_VALUES = 128,
        /// The scatter writes the kept elements' indices.
        COMPACT_INDICES = 256,
        /// The scatter writes the other elements after the kept ones (a partition).
        COMPACT_REST = 512,
        /// The scatter writes each element's run index.
        COMPACT_INVERSE = 1024,
        /// The run indices go to the places a permutation names.
        COMPACT_PERM = 2048,
        /// A histogram of integers (bincount).
        COMPACT_INTS = 4096,
        /// The comparison holds where the element is below the value.
        COMPACT_LT = 8192,
        /// ... above the value.
        COMPACT_GT = 16384,
        /// ... equal to the value.
        COMPACT_EQ = 32768,
        /// ... not equal to the value.
        COMPACT_NE = 65536,
        /// The count writes which elements it keeps, a bit each, and the scatter reads them.
        COMPACT_BITS = 131072,
    }
    {
        /// Elements.
        n: u32,
        /// Workgroups numbered linearly.
        tiles: u32,
        /// Width of the dispatch grid.
        groups_x: u32,
        /// `COMPACT_*` bits.
        flags: u32,
        /// Elements per row (histograms), or coordinates per kept element (the unravel).
        len: u32,
        /// Bins per row.
        bins: u32,
        /// The low end of a float histogram's range, or a float comparison's value.
        lo: f32,
        /// `bins / (hi - lo)`.
        scale: f32,
        /// The high end of a float histogram's range.
        hi: f32,
        /// The bits written past the count, or an integer comparison's value.
        value: u32,
        /// Workgroups per row of a histogram.
        row_groups: u32,
        /// The unravel's first dimension.
        first: u32,
        /// The unravel's three dimensions and the product of those after them.
        dims: [u32; 4],
    }
}
