//! Planning a scan: which algorithm [`ScanAlgorithm::Auto`] takes, and how rows map onto tiles.
//! Pure functions, tested without a device.

use crate::kernels::{scan_tile_len, WORKGROUP_SIZES};
use crate::ops::ScanAlgorithm;
use crate::plan::tuning::Tuning;

/// The elements a row's tiles span where the buffers allow vec4 access: a row that starts off a
/// 16-byte boundary (possible when rows are not a multiple of 4 elements long) is tiled from the
/// boundary before it, so that every slot of 4 elements is one aligned vector load and store
/// (shaders/scan.wgsl, `tile_geo`, `ScanAccess::Shifted`); its tiles then hold up to 3 elements
/// of the row before it, which they neither scan nor store.
pub(crate) fn tile_span(rows: usize, len: usize) -> usize {
    if rows > 1 && !len.is_multiple_of(4) {
        len + 3
    } else {
        len
    }
}

/// The workgroup size of a look-back pass over `rows` rows whose tiles span `span` elements
/// each: [`Tuning::scan_lookback_workgroup_size`] for one row longer than
/// [`Tuning::scan_lookback_max_tiles`] tiles at the default size (where the larger tiles were
/// faster on the H200: 2^20 f32, 128 tiles of 8192, took 8.4–8.5 µs of GPU time against 9.4–10.0
/// for 256 tiles of 4096 and 10.3 for reduce-then-scan); half of `workgroup_size` for one row
/// of at most [`Tuning::scan_lookback_small_tiles`] tiles at the default size, where that half
/// is one of [`WORKGROUP_SIZES`]; else `workgroup_size` (rows of a few tiles at 512 were slower:
/// 1024 rows of 10,000 took 54.2 µs against 40.5).
pub(crate) fn lookback_workgroup(rows: usize, span: usize, tuning: &Tuning) -> u32 {
    let tiles = span.div_ceil(scan_tile_len(tuning.workgroup_size) as usize);
    if rows != 1 {
        tuning.workgroup_size
    } else if tiles > tuning.scan_lookback_max_tiles {
        tuning.scan_lookback_workgroup_size
    } else if tiles <= tuning.scan_lookback_small_tiles {
        small_lookback_workgroup(tuning).unwrap_or(tuning.workgroup_size)
    } else {
        tuning.workgroup_size
    }
}

/// The workgroup size of the look-back over one row of few tiles: half of `workgroup_size`,
/// where that is one of [`WORKGROUP_SIZES`] and [`Tuning::scan_lookback_small_tiles`] is not 0.
pub(crate) fn small_lookback_workgroup(tuning: &Tuning) -> Option<u32> {
    let half = tuning.workgroup_size / 2;
    (tuning.scan_lookback_small_tiles > 0 && WORKGROUP_SIZES.contains(&half)).then_some(half)
}

/// The algorithm [`ScanAlgorithm::Auto`] takes for `rows` rows of `len` elements with this
/// tuning, whether the backend may run the look-back (see `Context::scan_algorithm`), and
/// whether the scan writes an output an earlier operation of its recording used while reading
/// an input none wrote (`output_waits`: one row of more than
/// [`Tuning::scan_lookback_row_tiles`] tiles then takes reduce-then-scan; see
/// [`Tuning::scan_lookback_wide_max_tiles`]).
pub(crate) fn auto_algorithm(
    rows: usize,
    len: usize,
    lookback_backend: bool,
    output_waits: bool,
    tuning: &Tuning,
) -> ScanAlgorithm {
    let span = tile_span(rows, len);
    let row_tile = scan_tile_len(tuning.scan_row_workgroup_size) as usize;
    let wg = lookback_workgroup(rows, span, tuning);
    let tile = scan_tile_len(wg) as usize;
    let tiles = if span <= row_tile {
        1
    } else {
        span.div_ceil(tile)
    };
    // One long row at the look-back's larger workgroup.
    let wide = rows == 1 && wg > tuning.workgroup_size;
    let lookback = tiles >= 2
        && (tiles <= tuning.scan_lookback_row_tiles
            || !(rows == 1 && output_waits)
                && match wide {
                    true => tiles <= tuning.scan_lookback_wide_max_tiles,
                    false => tiles.saturating_mul(rows) <= tuning.scan_lookback_max_tiles,
                });
    if lookback && lookback_backend {
        ScanAlgorithm::DecoupledFallback
    } else {
        ScanAlgorithm::ReduceThenScan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_off_a_16_byte_boundary_take_three_elements_of_slack() {
        assert_eq!(tile_span(1, 10), 10);
        assert_eq!(tile_span(2, 8), 8);
        assert_eq!(tile_span(2, 10), 13);
    }

    #[test]
    fn auto_takes_the_lookback_for_short_rows_of_tiles_and_small_scans() {
        let t = Tuning {
            subgroups: false,
            ..crate::plan::test_tuning()
        };
        let dfb = ScanAlgorithm::DecoupledFallback;
        let rts = ScanAlgorithm::ReduceThenScan;
        // One tile per row: one pass whatever the algorithm; reported as reduce-then-scan.
        assert_eq!(auto_algorithm(8192, 8192, true, false, &t), rts);
        // Rows of 2..=4 tiles, any number of rows.
        assert_eq!(auto_algorithm(4096, 16384, true, false, &t), dfb);
        assert_eq!(auto_algorithm(4096, 16385, true, false, &t), rts);
        // One row of 128 tiles (2^19), and of up to 256 larger tiles (2^21) where the larger
        // look-back workgroup is taken; not beyond.
        assert_eq!(auto_algorithm(1, 1 << 19, true, false, &t), dfb);
        assert_eq!(auto_algorithm(1, 1 << 20, true, false, &t), dfb);
        assert_eq!(auto_algorithm(1, 1 << 21, true, false, &t), dfb);
        assert_eq!(auto_algorithm(1, (1 << 21) + 1, true, false, &t), rts);
        // A scan of one row whose output waits for earlier work while its input does not:
        // reduce-then-scan past 4 tiles of either size (one row of up to 4 tiles of the small
        // look-back workgroup is one tile of the row workgroup), rows of few tiles keep it.
        assert_eq!(auto_algorithm(1, 1 << 16, true, false, &t), dfb);
        assert_eq!(auto_algorithm(1, 1 << 16, true, true, &t), rts);
        assert_eq!(auto_algorithm(1, 1 << 19, true, true, &t), rts);
        assert_eq!(auto_algorithm(1, 1 << 21, true, true, &t), rts);
        assert_eq!(auto_algorithm(4096, 16384, true, true, &t), dfb);
        let fewer = Tuning {
            scan_lookback_wide_max_tiles: 128,
            ..t
        };
        assert_eq!(auto_algorithm(1, 1 << 20, true, false, &fewer), dfb);
        assert_eq!(auto_algorithm(1, (1 << 20) + 1, true, false, &fewer), rts);
        let narrow = Tuning {
            scan_lookback_workgroup_size: 256,
            ..t
        };
        assert_eq!(auto_algorithm(1, 1 << 20, true, false, &narrow), rts);
        // Never where the backend may not run it (GL, WebGPU).
        assert_eq!(auto_algorithm(4096, 16384, false, false, &t), rts);
    }

    #[test]
    fn only_single_rows_past_the_smaller_lookback_take_the_larger_workgroup() {
        let t = crate::plan::test_tuning();
        assert_eq!(lookback_workgroup(1, 1 << 19, &t), 256);
        assert_eq!(lookback_workgroup(1, (1 << 19) + 1, &t), 512);
        assert_eq!(lookback_workgroup(1, 1 << 28, &t), 512);
        assert_eq!(lookback_workgroup(2, 1 << 24, &t), 256);
        let narrow = Tuning {
            scan_lookback_workgroup_size: 256,
            ..t
        };
        assert_eq!(lookback_workgroup(1, 1 << 28, &narrow), 256);
    }

    #[test]
    fn single_rows_of_few_tiles_take_half_the_workgroup() {
        let t = crate::plan::test_tuning();
        // 48 tiles of 4096 (the default's limit) take tiles of 2048; 48 tiles and one element
        // do not, nor rows of an array of several rows.
        assert_eq!(lookback_workgroup(1, 48 * 4096, &t), 128);
        assert_eq!(lookback_workgroup(1, 8193, &t), 128);
        assert_eq!(lookback_workgroup(1, 48 * 4096 + 1, &t), 256);
        assert_eq!(lookback_workgroup(2, 8193, &t), 256);
        let off = Tuning {
            scan_lookback_small_tiles: 0,
            ..t
        };
        assert_eq!(lookback_workgroup(1, 8193, &off), 256);
        // Half of 64 is no workgroup size the kernels are built for.
        let small = Tuning {
            workgroup_size: 64,
            ..t
        };
        assert_eq!(lookback_workgroup(1, 2049, &small), 64);
        // Auto's tile count follows: one row of 48 tiles of 4096 is 96 tiles of 2048, still a
        // look-back.
        assert_eq!(
            auto_algorithm(1, 48 * 4096, true, false, &t),
            ScanAlgorithm::DecoupledFallback
        );
    }
}
