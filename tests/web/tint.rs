//! Every kernel variant the library can build, compiled by the browser's WGSL compiler (Tint in
//! Chromium, stricter than naga: constant infinities and NaNs, the `enable subgroups;`
//! directive, barriers and subgroup operations in uniform control flow), from the WGSL the
//! library itself generates for a browser (`Kernel::browser_source`). Errors fail the test;
//! warnings are listed. A compute pipeline is built for a sample of every family.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};
use wgpu_reduce::kernels::{AxisVariant, Kernel, Layout};

#[wasm_bindgen(module = "/tests/web/tint.js")]
extern "C" {
    #[wasm_bindgen(js_name = tintCheck, catch)]
    async fn tint_check(
        labels: Vec<String>,
        sources: Vec<String>,
        pipelines: Vec<u32>,
        subgroups: bool,
    ) -> Result<JsValue, JsValue>;
}

/// Sources the browser's compiler must reject: a constant infinity, a barrier in control flow
/// that depends on the invocation, and a subgroup operation in control flow that depends on the
/// invocation (so the check covers the uniformity of subgroup operations too).
const CONTROLS: [(&str, &str); 3] = [
    (
        "control_inf",
        "@compute @workgroup_size(1) fn main() { let x = bitcast<f32>(0x7f800000u); }",
    ),
    (
        "control_barrier",
        "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) \
         { if i == 0u { workgroupBarrier(); } }",
    ),
    (
        "control_subgroup_branch",
        "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n\
         @compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) \
         { if i == 0u { o[0] = subgroupAdd(1u); } }",
    ),
];

/// A kernel's family: its kind, layout or pass, operation and subgroup use (element types,
/// workgroup sizes and access patterns vary within a family).
fn family(k: &Kernel) -> String {
    match k {
        Kernel::Reduce(v) => format!("reduce {} sg={}", v.op.name(), v.subgroups),
        // The further operations share a family per layout (one pipeline each: SwiftShader
        // takes about a second a pipeline).
        Kernel::Axis(v) if !wgpu_reduce::ReduceOp::BASIC.contains(&v.op) => {
            format!("axis {} further", v.layout.name())
        }
        Kernel::Axis(v) => format!("axis {} {}", v.layout.name(), v.op.name()),
        Kernel::Pack(v) => v.label(),
        Kernel::Scan(v) => format!("scan {} {} sg={}", v.mode.name(), v.op.name(), v.subgroups),
        Kernel::Fill => "fill".into(),
        Kernel::CheckOffsets => "check offsets".into(),
        Kernel::Sort(v) => v.label(),
        Kernel::Compact(v) => v.label(),
    }
}

fn workgroup_size(k: &Kernel) -> u32 {
    match k {
        Kernel::Reduce(v) => v.workgroup_size,
        Kernel::Axis(v) => v.workgroup_size,
        Kernel::Scan(v) => v.workgroup_size,
        Kernel::Compact(wgpu_reduce::kernels::CompactVariant::Total) => 64,
        Kernel::Pack(_)
        | Kernel::Fill
        | Kernel::CheckOffsets
        | Kernel::Sort(_)
        | Kernel::Compact(_) => 256,
    }
}

#[wasm_bindgen_test]
async fn every_variant_compiles_in_the_browser() {
    let mut kernels = Kernel::all();
    // Maps are not in Kernel::all: the mapped first pass with each built-in map, in each
    // layout a map takes.
    for map in wgpu_reduce::Map::builtins() {
        for layout in [
            Layout::Rows,
            Layout::Cols,
            Layout::RowsWide,
            Layout::ColsWide,
        ] {
            kernels.push(Kernel::Axis(AxisVariant {
                layout,
                op: wgpu_reduce::ReduceOp::Sum,
                input: wgpu_reduce::DType::F16,
                src_state: false,
                dst_final: true,
                workgroup_size: 256,
                map: map.id(),
                last_group: false,
            }));
        }
    }
    let mut rng = crate::rng("every_variant_compiles_in_the_browser");
    // One variant of each family, drawn at random, also becomes a compute pipeline.
    // (Variants of 512 invocations only as modules: they need more than WebGPU's default
    // limit of 256, which SwiftShader's adapter does not raise; the library takes them only
    // on devices that allow them.)
    let mut families: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (i, k) in kernels.iter().enumerate() {
        if workgroup_size(k) <= 256 {
            families.entry(family(k)).or_default().push(i as u32);
        }
    }
    let pipelines: Vec<u32> = families
        .values()
        .map(|v| *v.choose(&mut rng).expect("a family has members"))
        .collect();
    let mut labels: Vec<String> = kernels.iter().map(Kernel::label).collect();
    let mut sources: Vec<String> = kernels.iter().map(Kernel::browser_source).collect();
    // Positive controls: what the compiler must reject, so the check cannot pass vacuously.
    for (label, src) in CONTROLS {
        labels.push(label.to_string());
        sources.push(src.to_string());
    }
    let subgroup_variants = kernels.iter().filter(|k| k.uses_subgroups()).count();
    let report = tint_check(labels, sources, pipelines.clone(), true)
        .await
        .unwrap_or_else(|e| panic!("the browser's WebGPU failed: {e:?}"))
        .as_string()
        .expect("a text report");
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut checked = None;
    let mut controls_rejected = std::collections::BTreeSet::new();
    for line in report.lines() {
        let mut f = line.splitn(3, '\t');
        let (kind, a, b) = (f.next(), f.next().unwrap_or(""), f.next().unwrap_or(""));
        match kind {
            Some("adapter") | Some("features") => console_log!("{}: {a}", kind.unwrap()),
            Some("error") if a.starts_with("control_") => {
                controls_rejected.insert(a.to_string());
            }
            Some("error") => errors.push(format!("{a}: {b}")),
            Some("warning") => warnings.push(format!("{a}: {b}")),
            Some("checked") => checked = Some((a.parse::<usize>(), b.parse::<usize>())),
            _ => {}
        }
    }
    for w in &warnings {
        console_log!("warning {w}");
    }
    console_log!(
        "Tint: {} variants ({} with subgroups), {} families, {} pipelines; {} errors, {} warnings",
        kernels.len(),
        subgroup_variants,
        families.len(),
        pipelines.len(),
        errors.len(),
        warnings.len()
    );
    assert!(
        errors.is_empty(),
        "{} errors from the browser's compiler; the first:\n{}",
        errors.len(),
        errors[..errors.len().min(20)].join("\n")
    );
    assert_eq!(
        controls_rejected.len(),
        CONTROLS.len(),
        "the compiler rejected only {controls_rejected:?} of the controls"
    );
    assert_eq!(
        checked,
        Some((Ok(kernels.len() + CONTROLS.len()), Ok(pipelines.len()))),
        "modules and pipelines checked"
    );
    assert!(kernels.len() > 4000 && subgroup_variants > 1000);
}
