//! The library's one error type.
//!
//! Every fallible call returns [`Result<T>`](crate::Result). Each variant's message says what was
//! wrong and, where there is a choice, what is allowed instead. wgpu validation and out-of-memory
//! errors raised while the library works are captured (wgpu's default handler would panic) and
//! arrive here as [`Error::Validation`] and [`Error::OutOfMemory`].

/// Errors returned by wgpu-reduce.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No GPU adapter matched the request.
    #[error(
        "no GPU adapter found for backends {backends} ({detail}); install a Vulkan, Metal, DX12 or GL \
         driver, or choose other backends with WGPU_BACKEND (e.g. vulkan, metal, dx12, gl)"
    )]
    NoAdapter {
        /// The backends that were searched.
        backends: String,
        /// What wgpu said.
        detail: String,
    },

    /// On the web: the browser has no WebGPU (`navigator.gpu` is missing, or it gives no
    /// adapter).
    #[error(
        "this browser has no WebGPU ({detail}); the library needs a browser with WebGPU enabled \
         (e.g. Chrome or Edge 113 or later)"
    )]
    NoWebGpu {
        /// What is missing.
        detail: String,
    },

    /// `WGPU_ADAPTER_NAME` (or [`ContextOptions::adapter_name`](crate::ContextOptions)) named no
    /// available adapter.
    #[error("no adapter name contains {wanted:?}; available adapters: {available:?}")]
    AdapterNotFound {
        /// The name that was asked for (matched case-insensitively as a substring).
        wanted: String,
        /// Names of the adapters that exist.
        available: Vec<String>,
    },

    /// The adapter refused to create a device.
    #[error("could not create a device on adapter {adapter:?}: {source}")]
    RequestDevice {
        /// Adapter name.
        adapter: String,
        /// wgpu's error.
        #[source]
        source: WgpuError,
    },

    /// The operation needs a device feature that this adapter or device lacks.
    #[error("{op} needs the device feature {feature}, which this device does not have ({hint})")]
    FeatureMissing {
        /// The operation that was asked for.
        op: String,
        /// The wgpu feature name, e.g. `SHADER_F16`.
        feature: &'static str,
        /// What to do instead.
        hint: &'static str,
    },

    /// An array or buffer is larger than the device allows.
    #[error(
        "{what} needs {bytes} bytes, but this device allows at most {limit} bytes ({limit_name})"
    )]
    TooLarge {
        /// What was being created.
        what: String,
        /// Bytes requested.
        bytes: u64,
        /// The device limit.
        limit: u64,
        /// Name of the wgpu limit that applies.
        limit_name: &'static str,
    },

    /// A reduction without an identity element was asked of an empty array.
    #[error(
        "{op} over zero elements is undefined (NumPy and PyTorch raise for min/max/argmin/argmax \
         too); only sum (0) and prod (1) accept an empty reduction"
    )]
    EmptyInput {
        /// The reduction, e.g. `min`.
        op: &'static str,
    },

    /// An axis is outside the array's dimensions.
    #[error(
        "axis {axis} is out of range for an array of {ndim} dimensions; axes go from {} to {} \
         (negative axes count from the end)", -(*ndim.max(&1) as i64), *ndim.max(&1) as i64 - 1
    )]
    AxisOutOfRange {
        /// The axis given.
        axis: i32,
        /// Dimensions of the array.
        ndim: usize,
    },

    /// The same axis was named twice (after negative axes were counted from the end).
    #[error("axis {axis} is named more than once in {axes:?}; name each axis at most once")]
    DuplicateAxis {
        /// The repeated axis, counted from the start.
        axis: usize,
        /// The axes as given.
        axes: Vec<i32>,
    },

    /// The array has more dimensions than reductions support.
    #[error("the array has {ndim} dimensions; reductions support at most {max}")]
    TooManyDims {
        /// Dimensions of the array.
        ndim: usize,
        /// The most supported.
        max: usize,
    },

    /// The operation cannot reduce these axes together.
    #[error("{op} cannot reduce axes {axes:?}: {allowed}")]
    UnsupportedAxes {
        /// The reduction.
        op: &'static str,
        /// The axes as given.
        axes: Vec<i32>,
        /// What is allowed instead.
        allowed: &'static str,
    },

    /// The requested result type is not one this reduction produces for this input type.
    #[error("{op} of an array of {input} cannot return {output}; allowed result types: {allowed}")]
    UnsupportedOutput {
        /// The reduction.
        op: &'static str,
        /// Element type of the input.
        input: crate::element::DType,
        /// The result type asked for.
        output: crate::element::DType,
        /// The result types that are allowed.
        allowed: String,
    },

    /// The operation is not defined for this element type.
    #[error("{op} does not take arrays of {input}; allowed input types: {allowed}")]
    UnsupportedInput {
        /// The reduction.
        op: &'static str,
        /// Element type of the input.
        input: crate::element::DType,
        /// The input types that are allowed.
        allowed: String,
    },

    /// A parameter of an operation is out of its range.
    #[error("{name} = {value} is not allowed: {allowed}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// The value given, as text.
        value: String,
        /// What is allowed.
        allowed: &'static str,
    },

    /// Two inputs of one operation have different shapes (or element types).
    #[error(
        "{op} needs inputs of one shape and type; got {a:?} of {a_dtype} and {b:?} of {b_dtype}"
    )]
    InputsDiffer {
        /// The operation.
        op: &'static str,
        /// Shape of the first input.
        a: Vec<usize>,
        /// Element type of the first input.
        a_dtype: crate::element::DType,
        /// Shape of the second input.
        b: Vec<usize>,
        /// Element type of the second input.
        b_dtype: crate::element::DType,
    },

    /// A map's text is not a valid map: what is wrong, with the line in the map's own text
    /// (from the library's checks, or the device's WGSL compiler).
    #[error("invalid map: {message}")]
    InvalidMap {
        /// The reason, or the compiler's message.
        message: String,
    },

    /// A segmented reduction's offsets are not valid: segment `segment` ends before it starts,
    /// or past the end of the values (checked on the host for host offsets; for offsets on the
    /// GPU, by a check whose result is read with the recording's results).
    #[error("invalid segment offsets at segment {segment}: {reason}; offsets must be non-decreasing and at most the number of values")]
    InvalidOffsets {
        /// The first invalid segment.
        segment: usize,
        /// What is wrong.
        reason: String,
    },

    /// An element is outside what the operation takes (e.g. a negative value given to
    /// `bincount`), found by a check on the GPU whose result is read with the recording's
    /// results.
    #[error("{op}: element {index} is not allowed ({allowed})")]
    InvalidValue {
        /// The operation.
        op: &'static str,
        /// The lowest index of an element not allowed.
        index: usize,
        /// What the operation takes.
        allowed: &'static str,
    },

    /// A shape does not match the number of elements given.
    #[error("shape {shape:?} holds {shape_len} elements, but {len} were given")]
    ShapeMismatch {
        /// The shape asked for.
        shape: Vec<usize>,
        /// Product of the shape.
        shape_len: usize,
        /// Elements actually given.
        len: usize,
    },

    /// A caller-supplied buffer cannot be used as asked.
    #[error("invalid buffer: {reason}")]
    InvalidBuffer {
        /// What is wrong and what is needed.
        reason: String,
    },

    /// An array or result from one [`Context`](crate::Context) was used with another.
    #[error(
        "{what} belongs to another Context (device); arrays and results can only be used with the \
         Context that created them"
    )]
    WrongContext {
        /// What was passed.
        what: &'static str,
    },

    /// A call was made that is not valid in this state.
    #[error("{0}")]
    InvalidUse(String),

    /// A name given as text (`"sum".parse::<ReduceOp>()`, a command-line flag) names nothing.
    #[error("unknown {what} {name:?}; allowed: {allowed}")]
    UnknownName {
        /// What kind of name: `operation`, `scan operation` or `element type`.
        what: &'static str,
        /// The text given.
        name: String,
        /// The names allowed, comma-separated.
        allowed: String,
    },

    /// The device was lost (driver reset, `Device::destroy`, GPU removed). Create a new Context.
    #[error("the GPU device was lost ({reason}); create a new Context")]
    DeviceLost {
        /// Why, as reported by wgpu.
        reason: String,
    },

    /// Mapping a buffer for reading failed.
    #[error("mapping a buffer for readback failed: {message}")]
    MapFailed {
        /// What failed.
        message: String,
        /// wgpu's error, where wgpu gave one.
        #[source]
        source: Option<WgpuError>,
    },

    /// Waiting for the GPU failed or timed out.
    #[error("waiting for the GPU failed: {source}")]
    PollFailed {
        /// wgpu's error.
        #[source]
        source: WgpuError,
    },

    /// wgpu reported a validation error while the library was working.
    #[error("wgpu validation error while {what}: {source}")]
    Validation {
        /// What the library was doing.
        what: String,
        /// wgpu's error.
        #[source]
        source: WgpuError,
    },

    /// The device ran out of memory.
    #[error("the GPU ran out of memory while {what}; free arrays, call Context::trim_pool, or use smaller inputs")]
    OutOfMemory {
        /// What was being done.
        what: String,
        /// wgpu's error.
        #[source]
        source: WgpuError,
    },

    /// The pipeline cache file could not be written.
    #[error("could not write the pipeline cache {path:?}: {detail}")]
    PipelineCache {
        /// The file.
        path: std::path::PathBuf,
        /// What the file system said.
        detail: String,
    },

    /// wgpu reported an internal error.
    #[error("wgpu internal error while {what}: {source}")]
    Internal {
        /// What the library was doing.
        what: String,
        /// wgpu's error.
        #[source]
        source: WgpuError,
    },

    /// A range of a caller's buffer starts or ends where the device cannot bind it.
    #[error("{what} = {value} is not a multiple of {alignment} bytes ({rule})")]
    Misaligned {
        /// What is misaligned, e.g. `the range's offset`.
        what: &'static str,
        /// The value given, in bytes.
        value: u64,
        /// The multiple it must be.
        alignment: u64,
        /// Where the rule comes from.
        rule: &'static str,
    },
}

type Dyn = dyn std::error::Error + Send + Sync + 'static;

/// An error wgpu returned, kept as the [`source`](std::error::Error::source) of the library's
/// [`Error`] (shared, so that `Error` stays `Clone`). [`get`](Self::get) gives wgpu's own
/// error, to downcast (`wgpu::Error`, `wgpu::BufferAsyncError`, `wgpu::PollError`,
/// `wgpu::RequestDeviceError`); on the web, where wgpu's errors cannot cross threads, its
/// message only. Two are equal when their messages are.
///
/// ```
/// # fn f(e: &wgpu_reduce::Error) {
/// use std::error::Error as _;
/// use wgpu_reduce::{wgpu, WgpuError};
/// let wgpu_error = e
///     .source()
///     .and_then(|s| s.downcast_ref::<WgpuError>())
///     .and_then(|w| w.get().downcast_ref::<wgpu::Error>());
/// # }
/// ```
#[derive(Clone)]
pub struct WgpuError(std::sync::Arc<Dyn>);

impl WgpuError {
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn new(e: impl std::error::Error + Send + Sync + 'static) -> WgpuError {
        WgpuError(std::sync::Arc::new(e))
    }

    /// On the web wgpu's errors are not `Send`: their message is kept.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn new(e: impl std::error::Error + 'static) -> WgpuError {
        WgpuError(std::sync::Arc::new(Message(e.to_string())))
    }

    /// wgpu's error itself.
    pub fn get(&self) -> &Dyn {
        &*self.0
    }
}

/// A wgpu error's message (the web's errors are not `Send`).
#[cfg(target_arch = "wasm32")]
#[derive(Debug)]
struct Message(String);

#[cfg(target_arch = "wasm32")]
impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(target_arch = "wasm32")]
impl std::error::Error for Message {}

impl std::fmt::Debug for WgpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl std::fmt::Display for WgpuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&*self.0, f)
    }
}

impl std::error::Error for WgpuError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for WgpuError {
    fn eq(&self, other: &WgpuError) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0) || self.to_string() == other.to_string()
    }
}

impl Error {
    /// Converts a wgpu error captured in an error scope.
    pub(crate) fn from_wgpu(err: wgpu::Error, what: &str) -> Self {
        let what = what.to_string();
        match err {
            wgpu::Error::OutOfMemory { .. } => Error::OutOfMemory {
                what,
                source: WgpuError::new(err),
            },
            wgpu::Error::Validation { .. } => Error::Validation {
                what,
                source: WgpuError::new(err),
            },
            wgpu::Error::Internal { .. } => Error::Internal {
                what,
                source: WgpuError::new(err),
            },
        }
    }
}

/// `Result` with the library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `FromStr` for a type with `ALL`, `name` and `parse`: [`Error::UnknownName`] lists the allowed
/// names when none matches.
macro_rules! from_str_by_name {
    ($ty:ty, $what:literal) => {
        impl std::str::FromStr for $ty {
            type Err = crate::error::Error;

            /// Parses a lower-case name; [`Error::UnknownName`](crate::Error::UnknownName)
            /// lists the allowed names otherwise.
            fn from_str(s: &str) -> crate::error::Result<$ty> {
                <$ty>::parse(s).ok_or_else(|| crate::error::Error::UnknownName {
                    what: $what,
                    name: s.to_string(),
                    allowed: <$ty>::ALL.map(|v| v.name()).join(", "),
                })
            }
        }
    };
}
pub(crate) use from_str_by_name;

// Here rather than beside DType, so that element types (the lowest layer) need no error.
from_str_by_name!(crate::element::DType, "element type");
