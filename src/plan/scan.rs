//! Planning a scan: which algorithm [`ScanAlgorithm::Auto`] takes, and how rows map onto tiles.
//! Pure functions, tested without a device.

use crate::context::Tuning;
use crate::ops::ScanAlgorithm;

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

/// The algorithm [`ScanAlgorithm::Auto`] takes for `rows` rows of `len` elements, given the
/// tile lengths at the two workgroup sizes and whether the backend may run the look-back
/// (see `Context::scan_algorithm`).
pub(crate) fn auto_algorithm(
    rows: usize,
    len: usize,
    tile: usize,
    row_tile: usize,
    lookback_backend: bool,
    tuning: &Tuning,
) -> ScanAlgorithm {
    let span = tile_span(rows, len);
    let tiles = if span <= row_tile {
        1
    } else {
        span.div_ceil(tile.max(1))
    };
    let lookback = tiles >= 2
        && (tiles <= tuning.scan_lookback_row_tiles
            || tiles.saturating_mul(rows) <= tuning.scan_lookback_max_tiles);
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
        let (tile, row_tile) = (4096, 8192);
        let t = Tuning {
            subgroups: false,
            ..crate::plan::test_tuning()
        };
        let dfb = ScanAlgorithm::DecoupledFallback;
        let rts = ScanAlgorithm::ReduceThenScan;
        // One tile per row: one pass whatever the algorithm; reported as reduce-then-scan.
        assert_eq!(auto_algorithm(8192, 8192, tile, row_tile, true, &t), rts);
        // Rows of 2..=4 tiles, any number of rows.
        assert_eq!(auto_algorithm(4096, 16384, tile, row_tile, true, &t), dfb);
        // One row of 128 tiles (2^19), but not of 256 (2^20).
        assert_eq!(auto_algorithm(1, 1 << 19, tile, row_tile, true, &t), dfb);
        assert_eq!(auto_algorithm(1, 1 << 20, tile, row_tile, true, &t), rts);
        // Never where the backend may not run it (GL, WebGPU).
        assert_eq!(auto_algorithm(4096, 16384, tile, row_tile, false, &t), rts);
    }
}
