//! Prints the Metal Shading Language that naga makes of one kernel variant, so a Mac user can
//! see what runs on their GPU (wgpu does the same translation at run time on macOS).
//!
//!     cargo run --example msl -- sum f32                   (whole-array kernel)
//!     cargo run --example msl -- max i32 --wg 128 --subgroups
//!     cargo run --example msl -- axis_cols_argmax_f16_raw_final_wg256   (any label)
//!     cargo run --example msl -- --list                    (every label)
//!     cargo run --example msl -- sum f32 --wgsl            (the WGSL instead)

use std::process::ExitCode;

use wgpu_reduce::kernels::{Kernel, ReduceVariant};
use wgpu_reduce::{DType, ReduceOp};

const USAGE: &str = "usage: msl OP DTYPE [--wg 64|128|256] [--subgroups] [--wgsl] | msl LABEL [--wgsl] | msl --list";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all = Kernel::all();
    if args.iter().any(|a| a == "--list") {
        for k in &all {
            println!("{}", k.label());
        }
        return ExitCode::SUCCESS;
    }
    let wgsl = args.iter().any(|a| a == "--wgsl");
    let kernel = if let Some(k) = args
        .first()
        .and_then(|label| all.iter().find(|k| &k.label() == label))
    {
        *k
    } else {
        let (Some(op), Some(dtype)) = (
            args.first()
                .and_then(|s| ReduceOp::parse(s))
                .filter(|op| op.is_simple()),
            args.get(1).and_then(|s| DType::parse(s)),
        ) else {
            eprintln!(
                "{USAGE}\n  OP: sum, prod, min, max, mean; DTYPE: f32, i32, u32, f16, bf16; \
                 LABEL: see --list"
            );
            return ExitCode::from(2);
        };
        let mut variant = ReduceVariant {
            input: dtype,
            op,
            workgroup_size: 256,
            subgroups: false,
        };
        let mut it = args.iter().skip(2);
        while let Some(a) = it.next() {
            match a.as_str() {
                "--subgroups" => variant.subgroups = true,
                "--wgsl" => {}
                "--wg" => match it.next().and_then(|v| v.parse().ok()) {
                    Some(w) if wgpu_reduce::WORKGROUP_SIZES.contains(&w) => {
                        variant.workgroup_size = w
                    }
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
        Kernel::Reduce(variant)
    };
    if wgsl {
        println!("{}", kernel.source());
        return ExitCode::SUCCESS;
    }
    match kernel.to_msl() {
        Ok(text) => {
            println!("// {} translated to MSL 2.4 by naga", kernel.label());
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
