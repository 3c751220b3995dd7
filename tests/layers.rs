//! The library's layers (ARCHITECTURE.md): a module uses only modules of its own layer or of the
//! layers below it, by module path (`crate::error::Error`), never through the crate root's
//! re-exports (`crate::Error`) or a grouped import (`use crate::{...}`), which would hide the
//! layer. Read from the source text, so a new import that reaches up fails here.

use std::path::{Path, PathBuf};

/// Lowest first, as `src/lib.rs` declares them (checked below).
const LAYERS: &[&str] = &[
    "element", "error", "ops", "kernels", "pool", "plan", "context", "array", "record", "api",
];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|x| *x == layer)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `crate::` paths of `text` (code, not comments) in a module of layer `own`: how many, and
/// a line for each that names no layer's module or one above `own`.
fn check(own: &str, file: &str, text: &str) -> (usize, Vec<String>) {
    let own_rank = rank(own).unwrap_or_else(|| panic!("{file} is in no layer"));
    let (mut uses, mut wrong) = (0, Vec::new());
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices("crate::") {
            let item: String = code[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            uses += 1;
            match rank(&item) {
                None => wrong.push(format!(
                    "{file}:{}: crate::{item}: name a layer's module (crate::<module>::...), \
                     not a re-export or a group",
                    n + 1
                )),
                Some(layer) if layer > own_rank => wrong.push(format!(
                    "{file}:{}: the {own} layer uses crate::{item}, a layer above it",
                    n + 1
                )),
                Some(_) => {}
            }
        }
    }
    (uses, wrong)
}

#[test]
fn modules_use_only_their_layer_and_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let (mut checked, mut uses, mut wrong) = (0, 0, Vec::new());
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let first = rel.components().next().expect("a component");
        let name = first.as_os_str().to_string_lossy();
        let own = name.trim_end_matches(".rs");
        if own == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable");
        let (u, w) = check(own, &rel.display().to_string(), &text);
        uses += u;
        wrong.extend(w);
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} files read");
    assert!(uses >= 50, "only {uses} uses of crate:: found");
    assert!(
        wrong.is_empty(),
        "uses that break the layers:\n{}",
        wrong.join("\n")
    );
}

/// The check can fail: a re-export, a group and a use that reaches up are each caught, and a
/// use of a lower layer's module is not.
#[test]
fn the_check_finds_what_it_forbids() {
    for (own, line, faults) in [
        ("record", "use crate::error::Error;", 0),
        (
            "record",
            "use crate::Error; // crate::Context in a comment",
            1,
        ),
        ("record", "use crate::{error, ops};", 1),
        ("ops", "use crate::record::Recorder;", 1),
        (
            "ops",
            "let a = crate::element::DType::F32; let b: crate::Tuning;",
            1,
        ),
    ] {
        let (uses, wrong) = check(own, "x.rs", line);
        assert!(uses >= 1, "{line}");
        assert_eq!(wrong.len(), faults, "{own}: {line}: {wrong:?}");
    }
}

/// `src/lib.rs` declares the modules in the order of [`LAYERS`], and no other.
#[test]
fn lib_declares_the_layers_lowest_first() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            l.strip_prefix("mod ")?.strip_suffix(';')
        })
        .collect();
    assert_eq!(
        declared, LAYERS,
        "lib.rs declares its modules in this order"
    );
}
