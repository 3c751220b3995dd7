//! Prints the Metal Shading Language that naga makes of one kernel variant, so a Mac user can
//! see what runs on their GPU (wgpu does the same translation at run time on macOS).
//!
//!     cargo run --example msl -- sum f32                   (whole-array kernel)
//!     cargo run --example msl -- max i32 --wg 128 --subgroups
//!     cargo run --example msl -- axis_cols_argmax_f16_raw_final_wg256   (any label)
//!     cargo run --example msl -- --list                    (every label)
//!     cargo run --example msl -- sum f32 --wgsl            (the WGSL instead)
//!
//! Options:
//!   OP DTYPE       a whole-array kernel: OP sum, prod, min, max or mean; DTYPE f32, i32, u32,
//!                  f16 or bf16
//!   LABEL          any kernel by its label (see --list)
//!   --wg W         workgroup size of the whole-array kernel: 64, 128 or 256 (default 256)
//!   --subgroups    the whole-array kernel's subgroup variant
//!   --wgsl         print the WGSL instead of the MSL
//!   --list         print every label

use std::process::ExitCode;

use lexopt::prelude::*;
use wgpu_reduce::kernels::{Kernel, ReduceVariant};
use wgpu_reduce::{DType, ReduceOp};

const USAGE: &str = "usage: msl OP DTYPE [--wg 64|128|256] [--subgroups] [--wgsl] | msl LABEL [--wgsl] | msl --list";

struct Args {
    names: Vec<String>,
    wg: u32,
    subgroups: bool,
    wgsl: bool,
    list: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        names: Vec::new(),
        wg: 256,
        subgroups: false,
        wgsl: false,
        list: false,
    };
    let mut p = lexopt::Parser::from_env();
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("wg") => {
                let v = p.value().map_err(|e| e.to_string())?;
                let v = v.to_string_lossy();
                a.wg = v
                    .parse()
                    .map_err(|_| format!("invalid value {v:?} for --wg: takes 64, 128 or 256"))?;
                if !wgpu_reduce::WORKGROUP_SIZES.contains(&a.wg) {
                    return Err(format!("--wg {}: takes 64, 128 or 256", a.wg));
                }
            }
            Long("subgroups") => a.subgroups = true,
            Long("wgsl") => a.wgsl = true,
            Long("list") => a.list = true,
            Short('h') | Long("help") => {
                let doc: Vec<&str> = include_str!("msl.rs")
                    .lines()
                    .skip_while(|l| !l.starts_with("//! Options:"))
                    .take_while(|l| l.starts_with("//!"))
                    .map(|l| l.trim_start_matches("//!").strip_prefix(' ').unwrap_or(""))
                    .collect();
                println!("{USAGE}\n\n{}", doc.join("\n"));
                std::process::exit(0);
            }
            Value(v) => a
                .names
                .push(v.into_string().map_err(|v| format!("{v:?} is not text"))?),
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(a)
}

/// The kernel the arguments name: a label, or an operation and an element type.
fn kernel(a: &Args, all: &[Kernel]) -> Result<Kernel, String> {
    match &a.names[..] {
        [label] => all
            .iter()
            .find(|k| &k.label() == label)
            .copied()
            .ok_or_else(|| format!("no kernel is labelled {label:?} (see --list)")),
        [op, dtype] => {
            let op: ReduceOp = op.parse().map_err(|e: wgpu_reduce::Error| e.to_string())?;
            if !op.is_simple() {
                return Err(format!(
                    "{} has no whole-array kernel of its own: name an axis kernel by its label",
                    op.name()
                ));
            }
            let input: DType = dtype
                .parse()
                .map_err(|e: wgpu_reduce::Error| e.to_string())?;
            Ok(Kernel::Reduce(ReduceVariant {
                input,
                op,
                workgroup_size: a.wg,
                subgroups: a.subgroups,
            }))
        }
        _ => Err("name one kernel: OP DTYPE, or a LABEL".into()),
    }
}

fn main() -> ExitCode {
    let all = Kernel::all();
    let k = match parse_args() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if k.list {
        for kernel in &all {
            println!("{}", kernel.label());
        }
        return ExitCode::SUCCESS;
    }
    let kernel = match kernel(&k, &all) {
        Ok(kernel) => kernel,
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if k.wgsl {
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
