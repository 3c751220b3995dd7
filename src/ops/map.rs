//! Maps: a WGSL function applied to each element before a reduction, `fn map(x: f32) -> f32`.
//!
//! ```
//! use wgpu_reduce::{Map, ReduceOp, Reduction};
//! let cube = Map::new("fn map(x: f32) -> f32 { return x * x * x; }").unwrap();
//! let sum_of_cubes = Reduction::new(ReduceOp::Sum).map(&cube);
//! assert!(Map::new("@group(0) @binding(9) var<storage> leak: array<f32>;").is_err());
//! ```
//!
//! What a map is: one WGSL function, `fn map(x: f32) -> f32`, and nothing else at module
//! scope but comments (constants and `let`s of its own go inside the function). It may do any
//! arithmetic and call any WGSL built-in function on its argument; its result is what the
//! reduction sees (argmin/argmax compare mapped values and report the original index). It
//! cannot declare bindings, module-scope variables, constants, overrides, types or other
//! functions, and it cannot name anything of the kernel it is put into: [`Map::new`] parses and
//! validates the text with naga as a module of its own, so every name it uses must be its own
//! or a WGSL built-in, and a map sees one element at a time, with no state kept between
//! elements. Maps apply to float inputs (f32, and f16/bf16 widened to f32) and to every
//! operation of one input. The device's compiler (naga on native backends, the browser's on
//! the web) compiles the map again in each kernel;
//! [`Context::check_map`](crate::Context::check_map) does that at once.
//!
//! NaN and infinities inside a map: WGSL lets a compiler assume that no value is NaN or
//! infinite, so a map's own comparisons and built-ins need not follow IEEE rules for them
//! (NVIDIA's compiler turns `if (x < 0.0) { return 0.0; } return x;` into `max(x, 0.0)`, which
//! returns 0 for NaN). A map that must treat NaN in a set way tests the bits
//! (`(bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u`). The library's own kernels do so
//! throughout, and their NaN rules hold on every device.
//!
//! Each distinct text is registered once for the life of the program (kernels are compiled once
//! per context and cached by it).

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

/// Checks that `source` is one function `fn map(x: f32) -> f32` and nothing else, valid on its
/// own (see the module documentation).
fn validate(source: &str) -> std::result::Result<(), String> {
    if source.len() > Map::MAX_BYTES {
        return Err(format!(
            "a map is at most {} bytes of WGSL; this one has {}",
            Map::MAX_BYTES,
            source.len()
        ));
    }
    let module = naga::front::wgsl::parse_str(source).map_err(|e| match e.location(source) {
        Some(l) => format!("line {}: {}", l.line_number, e.message()),
        None => e.message().to_string(),
    })?;
    let only = "a map is one function, `fn map(x: f32) -> f32`, with nothing else at module scope";
    let extra = [
        (module.entry_points.len(), "entry points"),
        (
            module.global_variables.len(),
            "module-scope variables or bindings",
        ),
        (module.constants.len(), "module-scope constants"),
        (module.overrides.len(), "pipeline-overridable constants"),
        (module.functions.len().saturating_sub(1), "other functions"),
    ];
    if let Some((_, what)) = extra.iter().find(|(count, _)| *count > 0) {
        return Err(format!("{only}: it declares {what}"));
    }
    let Some((handle, function)) = module.functions.iter().next() else {
        return Err(format!("{only}: it declares no function"));
    };
    let f32_type = |ty: naga::Handle<naga::Type>| {
        module.types[ty].inner == naga::TypeInner::Scalar(naga::Scalar::F32)
    };
    if function.name.as_deref() != Some("map")
        || function.arguments.len() != 1
        || !f32_type(function.arguments[0].ty)
        || !function.result.as_ref().is_some_and(|r| f32_type(r.ty))
    {
        let name = function.name.as_deref().unwrap_or("");
        return Err(format!(
            "{only}: found `fn {name}` of another name or signature"
        ));
    }
    // Aliases, structs and assertions leave nothing in the module: the text outside the
    // function must be comments and white space.
    let span = module.functions.get_span(handle).to_range().unwrap_or(0..0);
    for (at, text) in [(0, &source[..span.start]), (span.end, &source[span.end..])] {
        if let Some(offset) = beyond_comments(text) {
            let line = source[..at + offset].matches('\n').count() + 1;
            return Err(format!("line {line}: {only}"));
        }
    }
    if let Some(what) = beyond_arithmetic(function) {
        return Err(format!(
            "a map computes its result from its argument alone; it may not use {what}"
        ));
    }
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module)
    .map_err(|e| match e.location(source) {
        Some(l) => format!("line {}: {}", l.line_number, e.as_inner()),
        None => e.as_inner().to_string(),
    })?;
    Ok(())
}

/// What `function` does beyond arithmetic on its own values and control flow, if anything:
/// barriers, atomics, subgroup operations, textures, derivatives, discards and the like.
fn beyond_arithmetic(function: &naga::Function) -> Option<&'static str> {
    use naga::Expression as E;
    for (_, e) in function.expressions.iter() {
        match e {
            E::Literal(_)
            | E::Constant(_)
            | E::ZeroValue(_)
            | E::Compose { .. }
            | E::Access { .. }
            | E::AccessIndex { .. }
            | E::Splat { .. }
            | E::Swizzle { .. }
            | E::FunctionArgument(_)
            | E::LocalVariable(_)
            | E::Load { .. }
            | E::Unary { .. }
            | E::Binary { .. }
            | E::Select { .. }
            | E::Relational { .. }
            | E::Math { .. }
            | E::As { .. }
            | E::CallResult(_) => {}
            E::Derivative { .. } => return Some("derivatives"),
            E::ImageSample { .. } | E::ImageLoad { .. } | E::ImageQuery { .. } => {
                return Some("textures")
            }
            _ => return Some("memory, atomics or subgroup operations"),
        }
    }
    statements_beyond_arithmetic(&function.body)
}

fn statements_beyond_arithmetic(block: &naga::Block) -> Option<&'static str> {
    use naga::Statement as S;
    for statement in block.iter() {
        let inner = match statement {
            S::Emit(_) | S::Break | S::Continue | S::Return { .. } | S::Store { .. } => None,
            S::Call { .. } => Some("calls"),
            S::Block(b) => statements_beyond_arithmetic(b),
            S::If { accept, reject, .. } => statements_beyond_arithmetic(accept)
                .or_else(|| statements_beyond_arithmetic(reject)),
            S::Switch { cases, .. } => cases
                .iter()
                .find_map(|c| statements_beyond_arithmetic(&c.body)),
            S::Loop {
                body, continuing, ..
            } => statements_beyond_arithmetic(body)
                .or_else(|| statements_beyond_arithmetic(continuing)),
            S::ControlBarrier(_) | S::MemoryBarrier(_) => Some("barriers"),
            S::Kill => Some("discard"),
            _ => Some("memory, atomics, textures or subgroup operations"),
        };
        if inner.is_some() {
            return inner;
        }
    }
    None
}

/// The offset of the first character of `text` that is neither white space nor inside a
/// comment (`//` to the end of the line, or `/* */`, which nest in WGSL), if any.
fn beyond_comments(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    while i < bytes.len() {
        let two = &bytes[i..(i + 2).min(bytes.len())];
        if two == b"/*" {
            depth += 1;
            i += 2;
        } else if depth > 0 && two == b"*/" {
            depth -= 1;
            i += 2;
        } else if depth > 0 {
            i += 1;
        } else if two == b"//" {
            i += bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(bytes.len() - i);
        } else {
            let c = text[i..].chars().next()?;
            if !c.is_whitespace() {
                return Some(i);
            }
            i += c.len_utf8();
        }
    }
    None
}

impl Map {
    /// The longest map text, in bytes.
    pub const MAX_BYTES: usize = 16 * 1024;

    /// A map from WGSL text that defines `fn map(x: f32) -> f32` and nothing else. The text
    /// is parsed and validated by naga as a module of its own; anything else at module scope,
    /// a name that is neither its own nor a WGSL built-in, a text over [`Map::MAX_BYTES`] or
    /// invalid WGSL is [`Error::InvalidMap`], with the line in the map's text.
    ///
    /// ```
    /// use wgpu_reduce::Map;
    /// assert!(Map::new("fn map(x: f32) -> f32 { const k = 3.0; return k * x; }").is_ok());
    /// // The kernel's names do not exist for a map.
    /// assert!(Map::new("fn map(x: f32) -> f32 { return x + src[0u]; }").is_err());
    /// // Nothing but the function at module scope.
    /// assert!(Map::new("var<private> n: f32;\nfn map(x: f32) -> f32 { return x; }").is_err());
    /// ```
    pub fn new(source: &str) -> Result<Map> {
        validate(source).map_err(|message| Error::InvalidMap { message })?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        match Map::new(text) {
            Err(Error::InvalidMap { message }) => message,
            other => panic!("{text:?} was not refused: {other:?}"),
        }
    }

    /// What reached the kernel's memory or kept state, and its look-alikes: each refused when
    /// made, with what is wrong or the line.
    #[test]
    fn maps_that_reach_beyond_their_argument_are_refused() {
        let body = "fn map(x: f32) -> f32 { count += 1.0; return x + count; }";
        let cases: Vec<(String, &str)> = vec![
            (format!("var <private> count: f32;\n{body}"), "module-scope variables"),
            (format!("var/* */<private> count: f32;\n{body}"), "module-scope variables"),
            (format!("var<private>count: f32;\n{body}"), "module-scope variables"),
            ("@group(0) @binding(7) var<storage> y: array<f32>;\nfn map(x: f32) -> f32 { return x; }".into(), "module-scope variables"),
            ("fn map(x: f32) -> f32 { return x + src[0u]; }".into(), "line 1"),
            ("fn map(x: f32) -> f32 { return f32(arrayLength(&src)); }".into(), "line 1"),
            ("fn map(x: f32) -> f32 {\n  return x + f32(params.r);\n}".into(), "line 2"),
            ("fn map(x: f32) -> f32 { dst[0u] = dst[1u]; return x; }".into(), "line 1"),
            ("fn map(x: f32) -> f32 {\n    let y = x;\n    return y * z;\n}".into(), "line 3"),
            ("const K = 2.0;\nfn map(x: f32) -> f32 { return K * x; }".into(), "line 1"),
            ("const K: f32 = 2.0;\nfn map(x: f32) -> f32 { return K * x; }".into(), "module-scope constants"),
            ("override K: f32 = 2.0;\nfn map(x: f32) -> f32 { return K * x; }".into(), "pipeline-overridable"),
            ("fn helper(x: f32) -> f32 { return x; }\nfn map(x: f32) -> f32 { return helper(x); }".into(), "other functions"),
            ("fn square(x: f32) -> f32 { return x * x; }".into(), "another name or signature"),
            // A Cyrillic letter in the name.
            ("fn m\u{430}p(x: f32) -> f32 { return x; }".into(), "another name or signature"),
            ("fn map(x: i32) -> i32 { return x; }".into(), "another name or signature"),
            ("fn map(x: f32, y: f32) -> f32 { return x; }".into(), "another name or signature"),
            ("alias T = f32;\nfn map(x: T) -> T { return x; }".into(), "line 1"),
            ("struct P { a: f32 }\nfn map(x: f32) -> f32 { return P(x).a; }".into(), "line 1"),
            ("const_assert 1 < 2;\nfn map(x: f32) -> f32 { return x; }".into(), "line 1"),
            ("@must_use\nfn map(x: f32) -> f32 { return x; }".into(), "line 1"),
            ("@compute @workgroup_size(1) fn map() {}".into(), "entry points"),
            ("enable f16;\nfn map(x: f32) -> f32 { return x; }".into(), "line 1"),
            ("fn map(x: f32) -> f32 { return x; }\nfn map(x: f32) -> f32 { return x; }".into(), "line 2"),
            ("fn map(x: f32) -> f32 { return map(x); }".into(), "recursive"),
            ("fn map(x: f32) -> f32 {\n  workgroupBarrier();\n  return x;\n}".into(), "barriers"),
            ("fn map(x: f32) -> f32 { return dpdx(x); }".into(), "derivatives"),
            ("fn map(x: f32) -> f32 { return x; }\n/* not closed".into(), ""),
            ("fn map(x: f32) -> f32 { return x; }}".into(), "line 1"),
            (format!("fn map(x: f32) -> f32 {{ return {}x{}; }}", "(".repeat(2000), ")".repeat(2000)), ""),
            (format!("// {}\nfn map(x: f32) -> f32 {{ return x; }}", "a".repeat(Map::MAX_BYTES)), "at most 16384 bytes"),
        ];
        for (text, want) in &cases {
            let message = refused(text);
            assert!(message.contains(want), "{text:?}: {message}");
        }
        assert_eq!(cases.len(), 31);
    }

    /// Comments anywhere, nested block comments, local constants, variables and unicode names
    /// are a map's own.
    #[test]
    fn look_alikes_that_are_maps() {
        for text in [
            "// x cubed\nfn map(x: f32) -> f32 {\n    return x * x * x;\n}",
            "/* a /* nested */ comment */ fn map(x: f32) -> f32 { return x; } // after",
            "fn map(x: f32) -> f32 { const k = 1.5; let \u{e9} = x; return \u{e9} * k; }",
            "fn map(x: f32) -> f32 { var count = 0.0; count += 1.0; return x + count; }",
            "fn map(x: f32) -> f32 { var s = 0.0; for (var i = 0; i < 3; i++) { s += x; } return s; }",
            "\u{2028}fn map(x: f32) -> f32 { return select(x, 0.0, x < 0.0); }\n\n",
        ] {
            Map::new(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        }
    }

    #[test]
    fn comments_and_white_space_are_found_as_wgsl_has_them() {
        assert_eq!(beyond_comments(" /* a /* b */ c */ // d\n\t"), None);
        assert_eq!(beyond_comments("/* a */ x"), Some(8));
        assert_eq!(beyond_comments("/* a /* b */ */ */"), Some(16));
        assert_eq!(beyond_comments("// a\nb"), Some(5));
        assert_eq!(beyond_comments("/* never closed"), None);
    }
}
