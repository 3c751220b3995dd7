//! Prints the Metal Shading Language that naga makes of one kernel variant, so a Mac user can
//! see what runs on their GPU (wgpu does the same translation at run time on macOS).
//!
//!     cargo run --example msl -- sum f32
//!     cargo run --example msl -- max i32 --wg 128 --subgroups
//!     cargo run --example msl -- --list
//!     cargo run --example msl -- sum f32 --wgsl     (the WGSL instead)

use std::process::ExitCode;

use naga::back::msl;
use naga::valid::{Capabilities, ShaderStages, SubgroupOperationSet, ValidationFlags, Validator};
use wgpu_reduce::kernels::ReduceVariant;
use wgpu_reduce::{DType, ReduceOp};

const USAGE: &str = "usage: msl OP DTYPE [--wg 64|128|256] [--subgroups] [--wgsl] | msl --list";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        for v in ReduceVariant::all() {
            println!("{}", v.label());
        }
        return ExitCode::SUCCESS;
    }
    let (Some(op), Some(dtype)) = (
        args.first().and_then(|s| ReduceOp::parse(s)),
        args.get(1).and_then(|s| DType::parse(s)),
    ) else {
        eprintln!("{USAGE}\n  OP: sum, prod, min, max, mean; DTYPE: f32, i32, u32");
        return ExitCode::from(2);
    };
    let mut variant = ReduceVariant {
        input: dtype,
        op,
        workgroup_size: 256,
        subgroups: false,
    };
    let mut wgsl = false;
    let mut it = args.iter().skip(2);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--subgroups" => variant.subgroups = true,
            "--wgsl" => wgsl = true,
            "--wg" => match it.next().and_then(|v| v.parse().ok()) {
                Some(w) if wgpu_reduce::WORKGROUP_SIZES.contains(&w) => variant.workgroup_size = w,
                _ => {
                    eprintln!("--wg takes one of {:?}", wgpu_reduce::WORKGROUP_SIZES);
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!("unknown option {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let src = variant.source();
    if wgsl {
        println!("{src}");
        return ExitCode::SUCCESS;
    }
    let module = match naga::front::wgsl::parse_str(&src) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}", e.emit_to_string(&src));
            return ExitCode::from(1);
        }
    };
    let caps = if variant.subgroups {
        Capabilities::SUBGROUP | Capabilities::SUBGROUP_BARRIER
    } else {
        Capabilities::empty()
    };
    let mut validator = Validator::new(ValidationFlags::all(), caps);
    validator
        .subgroup_stages(ShaderStages::COMPUTE)
        .subgroup_operations(SubgroupOperationSet::all());
    let info = match validator.validate(&module) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{}", e.emit_to_string(&src));
            return ExitCode::from(1);
        }
    };
    let options = msl::Options {
        lang_version: (2, 4),
        fake_missing_bindings: true,
        ..Default::default()
    };
    let pipeline = msl::PipelineOptions {
        entry_point: Some((naga::ShaderStage::Compute, "main".into())),
        ..Default::default()
    };
    match msl::write_string(&module, &info, &options, &pipeline) {
        Ok((text, _)) => {
            println!(
                "// {} translated to MSL 2.4 by naga {}",
                variant.label(),
                "30"
            );
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("MSL translation failed: {e:?}");
            ExitCode::from(1)
        }
    }
}
