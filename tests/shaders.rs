//! Every shader variant the library can build goes through naga: parse, validate, and translate
//! to MSL (Metal), SPIR-V (Vulkan) and HLSL (DX12). Any error fails the test. No GPU needed: this
//! is how Metal breakage is caught on a machine without a Mac.

use naga::back::{hlsl, spv};
use wgpu_reduce::kernels::Kernel;

fn to_spv(module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<Vec<u32>, String> {
    let options = spv::Options {
        lang_version: (1, 3),
        ..Default::default()
    };
    spv::write_vec(module, info, &options, None).map_err(|e| format!("{e:?}"))
}

fn to_hlsl(module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<String, String> {
    let options = hlsl::Options {
        shader_model: hlsl::ShaderModel::V6_0,
        fake_missing_bindings: true,
        ..Default::default()
    };
    let pipeline = hlsl::PipelineOptions::default();
    let mut out = String::new();
    hlsl::Writer::new(&mut out, &options, &pipeline)
        .write(module, info, None)
        .map_err(|e| format!("{e:?}"))?;
    Ok(out)
}

#[test]
fn every_variant_translates_to_msl_spirv_and_hlsl() {
    let variants = Kernel::all();
    assert!(
        variants.len() >= 3600,
        "expected every whole-array, axis, pack, scan and fill variant, got {}",
        variants.len()
    );
    let scans = variants
        .iter()
        .filter(|v| matches!(v, Kernel::Scan(_)))
        .count();
    assert_eq!(scans, 1350, "scan variants");
    let mut failures = Vec::new();
    for v in &variants {
        let result = v.naga_module().and_then(|(module, info)| {
            let msl = v.to_msl().map_err(|e| format!("MSL: {e}"))?;
            if !msl.contains("kernel void main_") && !msl.contains("kernel void main") {
                return Err("MSL has no kernel entry point".into());
            }
            let words = to_spv(&module, &info).map_err(|e| format!("SPIR-V: {e}"))?;
            if words.first() != Some(&0x0723_0203) {
                return Err("SPIR-V lacks its magic number".into());
            }
            to_hlsl(&module, &info).map_err(|e| format!("HLSL: {e}"))?;
            Ok(())
        });
        if let Err(e) = result {
            failures.push(format!("{}: {e}", v.label()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} variants failed:\n{}",
        failures.len(),
        variants.len(),
        failures.join("\n")
    );
    println!(
        "{} variants parsed, validated and translated to MSL, SPIR-V and HLSL",
        variants.len()
    );
}

#[test]
fn a_broken_shader_is_caught() {
    // The checker itself must be able to fail: a variant with a type error in it.
    let v = Kernel::all()[0];
    let broken = v.source().replace(
        "fn identity() -> A { return",
        "fn identity() -> A { return true; return",
    );
    let module = naga::front::wgsl::parse_str(&broken).expect("still parses");
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    );
    assert!(validator.validate(&module).is_err());
}

#[test]
fn variant_labels_are_unique() {
    let mut labels: Vec<String> = Kernel::all().iter().map(|v| v.label()).collect();
    let n = labels.len();
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), n);
}
