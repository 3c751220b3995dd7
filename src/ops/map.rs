//! Maps: a WGSL function applied to each element before a reduction, `fn map(x: f32) -> f32`.
//!
//! ```
//! use wgpu_reduce::{Map, ReduceOp, Reduction};
//! let cube = Map::new("fn map(x: f32) -> f32 { return x * x * x; }").unwrap();
//! let sum_of_cubes = Reduction::new(ReduceOp::Sum).map(&cube);
//! assert!(Map::new("@group(0) @binding(9) var<storage> leak: array<f32>;").is_err());
//! ```
//!
//! What a map can do: any arithmetic and WGSL built-in function on its f32 argument (and on
//! constants and helper functions of its own), returning an f32; its result is what the
//! reduction sees (argmin/argmax compare mapped values and report the original index). What it
//! cannot do: declare bindings or module-scope variables, use pointers, atomics, barriers or
//! textures, or read any other element: a map sees one element at a time. Maps apply to float
//! inputs (f32, and f16/bf16 widened to f32) and to every operation of one input.
//!
//! [`Map::new`] checks the text for what a map may not contain; the device's compiler
//! (naga on native backends, the browser's on the web) checks the WGSL itself when the map is
//! first compiled: [`Context::check_map`](crate::Context::check_map) does that at once and
//! returns the compiler's message, with the line in the map's own text, as
//! [`Error::InvalidMap`]. Each distinct text is registered once for the life of the program
//! (kernels are compiled once per context and cached by it).

use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};

/// A function applied to each element before a reduction (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    id: u32,
    source: Arc<str>,
}

/// Every map text registered, by id - 1.
static REGISTRY: Mutex<Vec<Arc<str>>> = Mutex::new(Vec::new());

/// What a map's text may not contain, and why.
const FORBIDDEN: [(&str, &str); 9] = [
    (
        "@",
        "attributes (a map declares no bindings, entry points or workgroup sizes)",
    ),
    (
        "var<",
        "module-scope or pointer address spaces (a map touches no memory)",
    ),
    ("ptr<", "pointers (a map touches no memory)"),
    ("atomic", "atomics (a map touches no memory)"),
    ("Barrier", "barriers (a map runs per element)"),
    ("texture", "textures"),
    ("sampler", "samplers"),
    ("enable ", "extensions"),
    ("override ", "pipeline-overridable constants"),
];

impl Map {
    /// A map from WGSL text that defines `fn map(x: f32) -> f32` (and, if it likes, constants
    /// and helper functions). Text with a construct a map may not use is
    /// [`Error::InvalidMap`]; the WGSL itself is compiled by the device (see
    /// [`Context::check_map`](crate::Context::check_map)).
    pub fn new(source: &str) -> Result<Map> {
        let code: String = source
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        for (token, what) in FORBIDDEN {
            if let Some(at) = code.find(token) {
                let line = code[..at].matches('\n').count() + 1;
                return Err(Error::InvalidMap {
                    message: format!("line {line}: `{token}`: a map may not use {what}"),
                });
            }
        }
        if !code.contains("fn map(") {
            return Err(Error::InvalidMap {
                message: "a map defines `fn map(x: f32) -> f32`".into(),
            });
        }
        let mut registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        let at = match registry.iter().position(|s| **s == *source) {
            Some(i) => i,
            None => {
                registry.push(Arc::from(source));
                registry.len() - 1
            }
        };
        Ok(Map {
            id: at as u32 + 1,
            source: registry[at].clone(),
        })
    }

    /// `|x|`.
    pub fn abs() -> Map {
        Map::builtin("fn map(x: f32) -> f32 { return abs(x); }")
    }

    /// `x * x`.
    pub fn square() -> Map {
        Map::builtin("fn map(x: f32) -> f32 { return x * x; }")
    }

    /// `exp(x)`.
    pub fn exp() -> Map {
        Map::builtin("fn map(x: f32) -> f32 { return exp(x); }")
    }

    /// `log(x)` (natural logarithm).
    pub fn log() -> Map {
        Map::builtin("fn map(x: f32) -> f32 { return log(x); }")
    }

    /// The built-in maps, for the tests that compile every kernel.
    pub fn builtins() -> [Map; 4] {
        [Map::abs(), Map::square(), Map::exp(), Map::log()]
    }

    fn builtin(source: &str) -> Map {
        Map::new(source).expect("a built-in map is valid")
    }

    /// The map's WGSL text.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The map's number in this program (1 and up; the same text always has the same number).
    pub fn id(&self) -> u32 {
        self.id
    }
}

/// The text of map `id` (as [`Map::id`] gives it).
pub(crate) fn source_of(id: u32) -> Option<Arc<str>> {
    let registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    registry.get(id.checked_sub(1)? as usize).cloned()
}

/// Map `id` (as [`Map::id`] gives it).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn map_of(id: u32) -> Option<Map> {
    Some(Map {
        id,
        source: source_of(id)?,
    })
}
