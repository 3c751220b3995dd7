//! Prints the Metal Shading Language that naga makes of one kernel variant, so a Mac user can
//! see what runs on their GPU (wgpu does the same translation at run time on macOS).
//!
//!     cargo run --example msl -- sum f32
//!     cargo run --example msl -- max i32 --wg 128 --subgroups
//!     cargo run --example msl -- --list
//!     cargo run --example msl -- sum f32 --wgsl     (the WGSL instead)

use std::process::ExitCode;

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
    if wgsl {
        println!("{}", variant.source());
        return ExitCode::SUCCESS;
    }
    match variant.to_msl() {
        Ok(text) => {
            println!("// {} translated to MSL 2.4 by naga", variant.label());
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
