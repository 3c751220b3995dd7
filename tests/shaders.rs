//! Every shader variant the library can build goes through naga: parse, validate, and translate
//! to MSL (Metal), SPIR-V (Vulkan) and HLSL (DX12); its GL form (integer f16 widening) is
//! validated without the f16-in-f32 capability. Any error fails the test. No GPU needed: this
//! is how Metal breakage is caught on a machine without a Mac.

use naga::back::{hlsl, spv};
use wgpu_reduce::kernels::{F16Widening, Kernel};

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

/// Parses, validates and translates `v` to MSL, SPIR-V and HLSL; validates its GL form.
fn translate(v: &Kernel) -> Result<(), String> {
    let (module, info) = v.naga_module()?;
    let msl = v.to_msl().map_err(|e| format!("MSL: {e}"))?;
    if !msl.contains("kernel void main_") && !msl.contains("kernel void main") {
        return Err("MSL has no kernel entry point".into());
    }
    let words = to_spv(&module, &info).map_err(|e| format!("SPIR-V: {e}"))?;
    if words.first() != Some(&0x0723_0203) {
        return Err("SPIR-V lacks its magic number".into());
    }
    to_hlsl(&module, &info).map_err(|e| format!("HLSL: {e}"))?;
    // GL's form (integer f16 widening) validates without the f16-in-f32 capability.
    v.naga_module_with(F16Widening::Integer)
        .map_err(|e| format!("integer f16 widening: {e}"))?;
    Ok(())
}

/// Maps are not in `Kernel::all` (their text comes from the user): the template of a mapped
/// first pass, with the built-in maps and a user-style map of a local constant and variable, in every
/// layout a map takes, for each float type, final or not, over operations of every kind of
/// state.
#[test]
fn mapped_variants_translate() {
    use wgpu_reduce::kernels::{AxisVariant, Layout};
    use wgpu_reduce::{DType, Map, ReduceOp};
    let user = Map::new(
        "// a user's map\nfn map(x: f32) -> f32 {\n    const K: f32 = 0.5;\n    var h = x * K;\n\
         h += sin(x);\n    return h;\n}",
    )
    .unwrap();
    let mut maps = Map::builtins().to_vec();
    maps.push(user);
    let ops = [
        ReduceOp::Sum,
        ReduceOp::Max,
        ReduceOp::Mean,
        ReduceOp::Argmax,
        ReduceOp::Var,
        ReduceOp::NanMean,
        ReduceOp::LogSumExp,
        ReduceOp::AMinMax,
        ReduceOp::Norm2,
        ReduceOp::CountNonzero,
    ];
    let layouts = [
        Layout::Rows,
        Layout::Cols,
        Layout::RowsWide,
        Layout::ColsWide,
    ];
    let mut checked = 0;
    let mut failures = Vec::new();
    for map in &maps {
        for op in ops {
            for layout in layouts {
                for input in [DType::F32, DType::F16, DType::BF16] {
                    for dst_final in [false, true] {
                        let v = Kernel::Axis(AxisVariant {
                            layout,
                            op,
                            input,
                            src_state: false,
                            dst_final,
                            workgroup_size: 256,
                            map: map.id(),
                            last_group: false,
                        });
                        assert!(v.source().contains(map.source()), "{}", v.label());
                        if let Err(e) = translate(&v) {
                            failures.push(format!("{}: {e}", v.label()));
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 5 * 10 * 4 * 3 * 2);
}

/// Translates every other variant of `Kernel::all`, from `first` (two tests share the work:
/// the test harness runs them on two threads).
fn translate_every_other(first: usize) -> usize {
    let variants: Vec<Kernel> = Kernel::all().into_iter().skip(first).step_by(2).collect();
    let mut failures = Vec::new();
    for v in &variants {
        if let Err(e) = translate(v) {
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
    variants.len()
}

#[test]
fn even_variants_translate_to_msl_spirv_and_hlsl() {
    let n = translate_every_other(0);
    println!("{n} variants parsed, validated and translated to MSL, SPIR-V and HLSL");
}

#[test]
fn odd_variants_translate_to_msl_spirv_and_hlsl() {
    let n = translate_every_other(1);
    println!("{n} variants parsed, validated and translated to MSL, SPIR-V and HLSL");
}

#[test]
fn every_variant_is_counted() {
    let variants = Kernel::all();
    // 150 whole-array, 4,533 axis (27 operations, 105 of them segmented, 54 the flat pass's
    // one-pass finish; passes over states shared where their source is the same:
    // AxisVariant::canonical), 2 pack, 2,880 scan, the fill kernel, the offsets check and 11
    // sort kernels (6 of the radix sort, the short rows' sort, 4 of the radix select) and 9 of
    // compaction, runs, comparisons and histograms.
    assert_eq!(variants.len(), 7590, "every variant the library can build");
    let scans = variants
        .iter()
        .filter(|v| matches!(v, Kernel::Scan(_)))
        .count();
    // 2520 at the three workgroup sizes, 180 tile passes and 180 look-back passes at
    // SCAN_ROW_WORKGROUP (element by element, vec4, and vec4 with rows off a 16-byte boundary).
    assert_eq!(scans, 2880, "scan variants");
}

/// Each scan variant's prelude declares the invocations, slots and tile the host plans with:
/// WG * 4 * K = TILE; 8 slots on half the invocations only in the pass over rows of one tile at
/// SCAN_ROW_WORKGROUP, 4 elsewhere.
#[test]
fn scan_preludes_match_the_planned_tiles() {
    use wgpu_reduce::kernels::{ScanMode, SCAN_ROW_WORKGROUP, SCAN_SLOTS};
    let mut checked = 0;
    let mut wide = 0;
    for v in Kernel::all() {
        let Kernel::Scan(s) = v else { continue };
        let row_tile = s.mode == ScanMode::Tile && s.workgroup_size == SCAN_ROW_WORKGROUP;
        let (wg, k) = if row_tile {
            (s.workgroup_size / 2, 2 * SCAN_SLOTS)
        } else {
            (s.workgroup_size, SCAN_SLOTS)
        };
        assert_eq!((s.invocations(), s.slots()), (wg, k), "{}", s.label());
        assert_eq!(wg * 4 * k, s.tile(), "{}", s.label());
        let src = v.source();
        for line in [
            format!("const WG: u32 = {wg}u;"),
            format!("const K: u32 = {k}u;"),
            format!("const TILE: u32 = {}u;", s.tile()),
        ] {
            assert!(src.contains(&line), "{}: no `{line}`", s.label());
        }
        checked += 1;
        wide += usize::from(row_tile);
    }
    assert_eq!((checked, wide), (2880, 180));
}

#[test]
fn a_broken_shader_is_caught() {
    // The checker must be able to fail, and fail for the fault put in: each variant's source
    // passes the same check (the positive control), and with one function added whose return
    // type is wrong it fails there.
    for v in [Kernel::all()[0], Kernel::all()[200], Kernel::all()[3000]] {
        let src = v.source();
        v.validate_source(&src, F16Widening::Native)
            .unwrap_or_else(|e| panic!("control: {} must validate: {e}", v.label()));
        let broken = format!("{src}\nfn broken_on_purpose() -> f32 {{ return 1u; }}\n");
        let err = v
            .validate_source(&broken, F16Widening::Native)
            .expect_err("a type error must be caught");
        assert!(
            err.contains("broken_on_purpose"),
            "{}: caught for another reason: {err}",
            v.label()
        );
    }
}

/// Every file in shaders/ is whole WGSL: it parses (naga's parser reads a whole file before it
/// resolves names, so a syntax error anywhere is reported), and the only error allowed is a
/// name another file of the variant defines. No file ends in an attribute waiting for a
/// declaration from elsewhere.
#[test]
fn every_shader_file_is_whole_wgsl() {
    use wgpu_reduce::kernels::source::FILES;
    let mut kernels = Kernel::all();
    // A mapped first pass (maps are not in Kernel::all).
    kernels.push(Kernel::Axis(wgpu_reduce::kernels::AxisVariant {
        layout: wgpu_reduce::kernels::Layout::Rows,
        op: wgpu_reduce::ReduceOp::Sum,
        input: wgpu_reduce::DType::F32,
        src_state: false,
        dst_final: true,
        workgroup_size: 256,
        map: wgpu_reduce::Map::abs().id(),
        last_group: false,
    }));
    let sources: Vec<String> = kernels
        .iter()
        .flat_map(|k| [k.source(), k.source_with(F16Widening::Integer)])
        .collect();
    let mut checked = 0;
    for (name, text) in FILES {
        if let Err(e) = naga::front::wgsl::parse_str(text) {
            let msg = e.emit_to_string(text);
            assert!(
                msg.starts_with("error: no definition in scope for identifier"),
                "{name} does not parse on its own: {msg}"
            );
        }
        let code: Vec<&str> = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .collect();
        let last = code.last().copied().unwrap_or("");
        assert!(
            !last.starts_with('@'),
            "{name} ends in an attribute: {last}"
        );
        // Each file is used whole by at least one variant (the fill kernel is its file alone).
        assert!(
            sources.iter().any(|s| s.contains(text)),
            "no variant uses {name} whole"
        );
        checked += 1;
    }
    assert_eq!(checked, FILES.len());
    assert!(checked >= 40, "only {checked} shader files found");
    // FILES names every file of shaders/, and nothing else.
    fn walk(dir: &std::path::Path, root: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("shaders/ is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else {
                let rel = path.strip_prefix(root).expect("under shaders/");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut on_disk = Vec::new();
    walk(&root, &root, &mut on_disk);
    on_disk.sort();
    let mut listed: Vec<String> = FILES.iter().map(|(p, _)| p.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "shaders/ on disk against kernels::source::FILES"
    );
}

/// The parameter structs the library writes (src/kernels/params.rs) and the WGSL structs the
/// kernels read agree field by field (name, offset, type) and in their flag bits, read back
/// from naga's module of one variant of each family.
#[test]
fn kernel_parameters_match_their_wgsl_structs() {
    use wgpu_reduce::kernels::params::*;
    fn check<P: KernelParams>() {
        let kernel = *Kernel::all()
            .iter()
            .find(|k| k.family() == P::FAMILY)
            .expect("a variant of the family");
        let (module, _) = kernel.naga_module().expect("valid");
        let mut layouter = naga::proc::Layouter::default();
        layouter.update(module.to_ctx()).expect("layout");
        let (_, ty) = module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(P::WGSL_STRUCT))
            .unwrap_or_else(|| panic!("{}: no struct {}", kernel.label(), P::WGSL_STRUCT));
        let naga::TypeInner::Struct { members, span } = &ty.inner else {
            panic!("{} is not a struct", P::WGSL_STRUCT)
        };
        assert_eq!(
            *span as usize,
            std::mem::size_of::<P>(),
            "{}",
            P::WGSL_STRUCT
        );
        let wgsl: Vec<(String, usize, String)> = members
            .iter()
            .map(|m| {
                let ty = match module.types[m.ty].inner {
                    naga::TypeInner::Scalar(s) => match s.kind {
                        naga::ScalarKind::Uint => "u32".to_string(),
                        naga::ScalarKind::Float => "f32".to_string(),
                        k => format!("{k:?}"),
                    },
                    _ => format!("[u32; {}]", layouter[m.ty].size / 4),
                };
                (m.name.clone().unwrap_or_default(), m.offset as usize, ty)
            })
            .collect();
        let rust: Vec<(String, usize, String)> = P::FIELDS
            .iter()
            .map(|&(n, o, t)| (n.to_string(), o, t.to_string()))
            .collect();
        assert_eq!(
            rust,
            wgsl,
            "{:?} parameters against WGSL {}",
            P::FAMILY,
            P::WGSL_STRUCT
        );
        for &(name, value) in P::FLAGS {
            let c = module
                .constants
                .iter()
                .find(|(_, c)| c.name.as_deref() == Some(name))
                .unwrap_or_else(|| panic!("{}: no WGSL constant {name}", kernel.label()))
                .1;
            let naga::Expression::Literal(naga::Literal::U32(v)) =
                module.global_expressions[c.init]
            else {
                panic!("{name} is not a u32 literal");
            };
            assert_eq!(v, value, "flag {name} of {:?}", P::FAMILY);
        }
    }
    check::<ReduceParams>();
    check::<AxisParams>();
    check::<ScanParams>();
    check::<PackParams>();
    check::<FillParams>();
    check::<SortParams>();
    check::<CompactParams>();
}

#[test]
fn variant_labels_are_unique() {
    let mut labels: Vec<String> = Kernel::all().iter().map(|v| v.label()).collect();
    let n = labels.len();
    labels.sort();
    labels.dedup();
    assert_eq!(labels.len(), n);
}

/// The kernels whose Metal source is kept as reviewed snapshots: the whole-array f32 sum (both
/// workgroup steps), the f16 sum, the whole-array f32 max (integer keys), and the passes of a
/// whole-array f32 argmax (flat first pass of long arrays, also finishing in one pass, rows of
/// short ones, the last pass), at the default workgroup size.
const MSL_SNAPSHOTS: &[&str] = &[
    "reduce_sum_f32_wg256_sg",
    "reduce_sum_f32_wg256",
    "reduce_sum_f16_wg256_sg",
    "reduce_max_f32_wg256_sg",
    "axis_flat_argmax_f32_raw_state_wg256",
    "axis_flat_argmax_f32_raw_final_wg256_lg",
    "axis_rows_argmax_f32_raw_state_wg256",
    "axis_rows_argmax_f32_state_final_wg256",
];

/// What Metal receives for the main kernels, compared with the files in tests/snapshots/msl/,
/// so that any change to it (a shader edit, a naga upgrade) shows up in review. After reviewing
/// a change, rewrite the files with `WGPU_REDUCE_BLESS=1 cargo test --test shaders`.
#[test]
fn msl_of_the_main_kernels_matches_the_reviewed_snapshots() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/msl");
    let bless = std::env::var_os("WGPU_REDUCE_BLESS").is_some();
    let all = Kernel::all();
    let mut changed = Vec::new();
    for label in MSL_SNAPSHOTS {
        let kernel = all
            .iter()
            .find(|k| k.label() == *label)
            .unwrap_or_else(|| panic!("no kernel variant is labelled {label}"));
        let msl = kernel.to_msl().unwrap();
        let path = dir.join(format!("{label}.metal"));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &msl).unwrap();
            continue;
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (create it with WGPU_REDUCE_BLESS=1)",
                path.display()
            )
        });
        if kept != msl {
            let line = kept
                .lines()
                .zip(msl.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(kept.lines().count().min(msl.lines().count()));
            changed.push(format!("{label}: first difference at line {}", line + 1));
        }
    }
    // No stale snapshot without a kernel.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let label = name.trim_end_matches(".metal");
        assert!(MSL_SNAPSHOTS.contains(&label), "stale snapshot {name}");
    }
    assert!(
        changed.is_empty(),
        "the MSL of these kernels changed; review the difference \
         (WGPU_REDUCE_BLESS=1 cargo test --test shaders rewrites tests/snapshots/msl):\n{}",
        changed.join("\n")
    );
}
