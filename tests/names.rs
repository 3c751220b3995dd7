//! Every example and harness that the README, the docs, the CI scripts or the GitHub workflow
//! name exists: a line such as `cargo run --example NAME` or `--bin NAME`, a row of the README's
//! table of examples, and the examples `.ci/smoke` loops over. Read from the files, so a renamed
//! or removed program fails here, not on a runner nobody watches.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The names after `--example` and `--bin` in `text` (shell variables such as `$e` left out).
fn named(text: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            let kind = match pair[0] {
                "--example" => "example",
                "--bin" => "bin",
                _ => continue,
            };
            // Quotes and punctuation around a name in prose: `01_hello`. or scan).
            let name = pair[1].trim_matches(|c: char| !(c.is_alphanumeric() || "_$-".contains(c)));
            if !name.starts_with('$') && !name.starts_with('-') && !name.is_empty() {
                out.push((kind, name.to_string()));
            }
        }
        // `for e in 01_hello 02_recorder ...; do cargo run --example $e; done`
        if let Some(rest) = line.trim().strip_prefix("for e in ") {
            if line.contains("--example $e") {
                let list = rest.split(';').next().unwrap_or("");
                out.extend(list.split_whitespace().map(|n| ("example", n.to_string())));
            }
        }
    }
    out
}

/// The examples of the README's table (`| \`name\` | ... |` rows under "## Examples").
fn readme_table(text: &str) -> Vec<String> {
    let section = text.split("## Examples").nth(1).unwrap_or("");
    let section = section.split("\n## ").next().unwrap_or("");
    (section.lines())
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

fn exists(kind: &str, name: &str) -> bool {
    match kind {
        "example" => {
            root().join("examples").join(format!("{name}.rs")).is_file()
                || root().join("examples").join(name).join("main.rs").is_file()
        }
        _ => root()
            .join("bench/src/bin")
            .join(format!("{name}.rs"))
            .is_file(),
    }
}

#[test]
fn every_program_a_document_or_script_names_exists() {
    let files = [
        "README.md",
        "BENCHMARKS.md",
        "ARCHITECTURE.md",
        "docs/GUIDE.md",
        ".ci/run",
        ".ci/smoke",
        ".ci/web",
        ".github/workflows/ci.yml",
        "benches/device.sh",
    ];
    let mut checked = 0;
    let mut missing = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(root().join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        let mut names = named(&text);
        if f == "README.md" {
            let table = readme_table(&text);
            assert!(
                table.len() >= 8,
                "the README's table of examples: {table:?}"
            );
            names.extend(table.into_iter().map(|n| ("example", n)));
        }
        for (kind, name) in names {
            checked += 1;
            if !exists(kind, &name) {
                missing.push(format!("{f}: {kind} {name}"));
            }
        }
    }
    assert!(missing.is_empty(), "named but not found: {missing:#?}");
    // The README, the smoke script and the workflow name a dozen programs or more.
    assert!(checked >= 20, "only {checked} names found");
    eprintln!("{checked} names of examples and harnesses checked");
}

#[test]
fn the_check_finds_a_program_that_does_not_exist() {
    let text = "cargo run --example sum\ncargo run -p x --bin no_such_harness -- --n 5\n\
                for e in 01_hello no_such_example; do cargo run --example $e; done\n";
    let names = named(text);
    assert_eq!(names.len(), 4, "{names:?}");
    let missing: Vec<_> = names.iter().filter(|(k, n)| !exists(k, n)).collect();
    assert_eq!(
        missing,
        vec![
            &("bin", "no_such_harness".to_string()),
            &("example", "no_such_example".to_string())
        ]
    );
    let table = readme_table("## Examples\n\n| `gone` | x |\n\n## Next\n| `not_this` | y |\n");
    assert_eq!(table, vec!["gone".to_string()]);
}

/// The README's links to the repository's own documents go through docs.rs's view of the
/// published sources (so they work on crates.io, where relative links do not), and each names a
/// file that exists and that the package ships (`include` in Cargo.toml).
#[test]
fn readme_links_name_shipped_files() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let base = "https://docs.rs/crate/wgpu-reduce/latest/source/";
    let mut checked = 0;
    for link in readme.split("](").skip(1) {
        let target = &link[..link.find(')').expect("a closed link")];
        if target.starts_with("http") && !target.starts_with(base) {
            continue;
        }
        let path = target.strip_prefix(base).unwrap_or_else(|| {
            panic!("README links {target:?} relatively: dead on crates.io; link {base}{target}")
        });
        assert!(
            root().join(path).is_file(),
            "README links {path}, which does not exist"
        );
        assert!(
            manifest.contains(&format!("\"/{path}\"")),
            "README links {path}, which Cargo.toml's include does not ship"
        );
        checked += 1;
    }
    assert!(
        checked >= 3,
        "only {checked} links to shipped documents found"
    );
}
