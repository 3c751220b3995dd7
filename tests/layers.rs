//! The library's layers (ARCHITECTURE.md): a module uses only modules of its own layer or of the
//! layers below it. Read from the source text, so a new import that reaches up fails here.

use std::path::{Path, PathBuf};

/// Lowest first, as `src/lib.rs` declares them. Element types and errors are one layer: errors
/// name element types, and parsing an element type's name returns an error.
const LAYERS: &[&[&str]] = &[
    &["element", "error"],
    &["ops"],
    &["kernels"],
    &["pool"],
    &["context"],
    &["plan"],
    &["array"],
    &["record"],
    &["api"],
];

/// The layer of an item the crate root re-exports.
fn layer_of_reexport(name: &str) -> Option<&'static str> {
    Some(match name {
        "DType" | "Element" => "element",
        "Error" | "Result" => "error",
        "Axes" | "ReduceOp" | "Reduction" | "Scan" | "ScanAlgorithm" | "ScanOp" | "MAX_DIMS" => {
            "ops"
        }
        "WORKGROUP_SIZES" => "kernels",
        "PoolStats" | "size_class" => "pool",
        "Capabilities" | "Context" | "ContextOptions" | "ContextStats" | "Subgroups" | "Tuning" => {
            "context"
        }
        "GpuArray" => "array",
        "ReadToken" | "Recorder" | "Results" | "Submission" => "record",
        _ => return None,
    })
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

#[test]
fn modules_use_only_their_layer_and_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rank = |l: &str| LAYERS.iter().position(|x| x.contains(&l));
    let (mut checked, mut uses, mut wrong) = (0, 0, Vec::new());
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let first = rel.components().next().expect("a component");
        let name = first.as_os_str().to_string_lossy();
        let own = name.trim_end_matches(".rs");
        if own == "lib" {
            continue;
        }
        let own_rank = rank(own).unwrap_or_else(|| panic!("{} is in no layer", rel.display()));
        let text = std::fs::read_to_string(file).expect("readable");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for (i, _) in code.match_indices("crate::") {
                let rest = &code[i + "crate::".len()..];
                let item: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let layer = rank(&item).or_else(|| layer_of_reexport(&item).and_then(rank));
                let Some(layer) = layer else {
                    // Macros exported at the crate root and the like.
                    continue;
                };
                uses += 1;
                if layer > own_rank {
                    wrong.push(format!(
                        "{}:{}: the {own} layer uses crate::{item} ({})",
                        rel.display(),
                        n + 1,
                        LAYERS[layer].join(", ")
                    ));
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} files read");
    assert!(uses >= 50, "only {uses} uses of crate:: found");
    assert!(
        wrong.is_empty(),
        "uses that reach up:\n{}",
        wrong.join("\n")
    );
}
