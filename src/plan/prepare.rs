//! Which kernels [`Context::prepare`](crate::Context::prepare) compiles for a [`Prepare`]: the
//! variants the recorder can pick for those operations with this context's tuning. Pure
//! functions, tested without a device.

use std::collections::HashSet;

use crate::error::{Error, Result};
use crate::kernels::{
    AxisVariant, Kernel, Layout, PackVariant, ReduceVariant, ScanAccess, ScanMode, ScanVariant,
};
use crate::ops::Prepare;
use crate::plan::scan::small_lookback_workgroup;
use crate::plan::tuning::Tuning;

/// The kernels of `p` under `tuning` (`subgroup_max`: the adapter's largest subgroup size,
/// which decides where scans use subgroup operations), in a fixed order, each once.
pub(crate) fn prepared_kernels(
    p: &Prepare,
    tuning: &Tuning,
    subgroup_max: u32,
) -> Result<Vec<Kernel>> {
    let wg = tuning.workgroup_size;
    let mut out = Vec::new();
    match *p {
        Prepare::Reduce { op, dtype } => {
            if !op.accepts(dtype) {
                return Err(Error::UnsupportedInput {
                    op: op.name(),
                    input: dtype,
                    allowed: "f32, f16, bf16 (vector norms are defined for floats, as in PyTorch)"
                        .into(),
                });
            }
            let op = op.for_input(dtype);
            if op.is_simple() {
                for input in [dtype, op.accumulator(dtype)] {
                    out.push(Kernel::Reduce(ReduceVariant {
                        input,
                        op,
                        workgroup_size: wg,
                        subgroups: tuning.subgroups,
                    }));
                }
            }
            let built: HashSet<AxisVariant> = AxisVariant::all().into_iter().collect();
            // The flat pass's one-pass finish where the context takes it.
            let flat_one_pass = tuning.flat_last_group();
            for layout in Layout::ALL.into_iter().filter(|&l| l != Layout::Segments) {
                for src_state in [false, true] {
                    for (dst_final, last_group) in
                        [(false, false), (true, false), (false, true), (true, true)]
                    {
                        if last_group && !flat_one_pass {
                            continue;
                        }
                        let v = AxisVariant {
                            layout,
                            op,
                            input: dtype,
                            src_state,
                            dst_final,
                            workgroup_size: wg,
                            map: 0,
                            last_group,
                        }
                        .canonical();
                        if built.contains(&v) && !out.contains(&Kernel::Axis(v)) {
                            out.push(Kernel::Axis(v));
                        }
                    }
                }
            }
            if dtype.is_half() {
                out.push(Kernel::Pack(PackVariant { output: dtype }));
            }
        }
        Prepare::Scan {
            op,
            dtype,
            exclusive,
        } => {
            let value = op.output(dtype);
            let small = small_lookback_workgroup(tuning);
            let mut sizes = vec![wg];
            for size in [
                tuning.scan_row_workgroup_size,
                tuning.scan_lookback_workgroup_size,
            ]
            .into_iter()
            .chain(small)
            {
                if !sizes.contains(&size) {
                    sizes.push(size);
                }
            }
            // The scan of the input, then (reduce-then-scan over many tiles) the exclusive
            // scans of the tile totals, whose input is the value type.
            for (input, exclusive, inner) in [(dtype, exclusive, false), (value, true, true)] {
                for mode in ScanMode::ALL {
                    let inner_mode = matches!(
                        mode,
                        ScanMode::Tile | ScanMode::Reduce | ScanMode::Downsweep
                    );
                    if inner && !inner_mode {
                        continue;
                    }
                    for access in ScanAccess::ALL {
                        for &size in &sizes {
                            let v = ScanVariant {
                                op,
                                input,
                                mode,
                                exclusive: exclusive && mode != ScanMode::Reduce,
                                access: if mode == ScanMode::Serial {
                                    ScanAccess::Scalar
                                } else {
                                    access
                                },
                                workgroup_size: size,
                                subgroups: tuning.subgroups
                                    && subgroup_max <= size
                                    && mode != ScanMode::Serial,
                            };
                            let taken = size == wg
                                || (mode == ScanMode::Tile
                                    && size == tuning.scan_row_workgroup_size)
                                || (mode == ScanMode::Lookback
                                    && (size == tuning.scan_lookback_workgroup_size
                                        || Some(size) == small));
                            if taken && v.is_valid() {
                                out.push(Kernel::Scan(v));
                            }
                        }
                    }
                }
            }
            out.push(Kernel::Fill);
        }
    }
    let mut seen = HashSet::new();
    out.retain(|k| seen.insert(*k));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::DType;
    use crate::ops::{ReduceOp, ScanOp};

    fn tuning() -> Tuning {
        crate::plan::test_tuning()
    }

    #[test]
    fn a_reduction_prepares_its_whole_array_and_axis_kernels_once() {
        let t = tuning();
        let k = prepared_kernels(&Prepare::reduce(ReduceOp::Sum, DType::F16), &t, 32).unwrap();
        let labels: Vec<String> = k.iter().map(Kernel::label).collect();
        assert!(
            labels.contains(&"reduce_sum_f16_wg256_sg".to_string()),
            "{labels:?}"
        );
        assert!(
            labels.contains(&"reduce_sum_f32_wg256_sg".to_string()),
            "{labels:?}"
        );
        assert!(labels.contains(&"pack_f16".to_string()));
        assert!(k.iter().all(|k| match k {
            Kernel::Axis(v) => v.workgroup_size == 256 && v.layout != Layout::Segments,
            _ => true,
        }));
        // Every first pass reads f16; the passes over states are f32's.
        let firsts = k
            .iter()
            .filter(|k| matches!(k, Kernel::Axis(v) if !v.src_state));
        assert!(firsts
            .clone()
            .all(|k| matches!(k, Kernel::Axis(v) if v.input == DType::F16)));
        assert!(firsts.count() >= 10);
        let unique: HashSet<_> = k.iter().collect();
        assert_eq!(unique.len(), k.len());
        // NaN forms of integer ops are the plain ones; norms refuse integers.
        let nan = prepared_kernels(&Prepare::reduce(ReduceOp::NanMax, DType::I32), &t, 32).unwrap();
        let max = prepared_kernels(&Prepare::reduce(ReduceOp::Max, DType::I32), &t, 32).unwrap();
        assert_eq!(nan, max);
        let err = prepared_kernels(&Prepare::reduce(ReduceOp::Norm2, DType::I32), &t, 32);
        assert!(
            matches!(err, Err(Error::UnsupportedInput { .. })),
            "{err:?}"
        );
    }

    #[test]
    fn a_scan_prepares_every_pass_of_both_algorithms() {
        let t = tuning();
        let k = prepared_kernels(&Prepare::scan(ScanOp::Add, DType::F16), &t, 32).unwrap();
        let modes: HashSet<ScanMode> = k
            .iter()
            .filter_map(|k| match k {
                Kernel::Scan(v) if v.input == DType::F16 => Some(v.mode),
                _ => None,
            })
            .collect();
        assert_eq!(modes.len(), ScanMode::ALL.len());
        // The totals' scans: exclusive, over f32.
        assert!(k.iter().any(|k| matches!(k, Kernel::Scan(v)
            if v.input == DType::F32 && v.exclusive && v.mode == ScanMode::Downsweep)));
        // The tile pass of rows of one larger tile.
        assert!(k
            .iter()
            .any(|k| matches!(k, Kernel::Scan(v) if v.workgroup_size == 512)));
        assert!(k.contains(&Kernel::Fill));
        // The look-back over one row of few tiles, at half the workgroup size (and nothing
        // else at that size).
        assert!(k.iter().any(|k| matches!(k, Kernel::Scan(v)
            if v.workgroup_size == 128 && v.mode == ScanMode::Lookback)));
        assert!(k.iter().all(|k| !matches!(k, Kernel::Scan(v)
            if v.workgroup_size == 128 && v.mode != ScanMode::Lookback)));
        // Subgroups only where the subgroup fits the workgroup.
        let wide = prepared_kernels(&Prepare::scan(ScanOp::Add, DType::F32), &t, 1024).unwrap();
        assert!(wide
            .iter()
            .all(|k| !matches!(k, Kernel::Scan(v) if v.subgroups)));
    }
}
