#!/usr/bin/env bash
# One device run of the reduce-then-scan settings on mid-size f32 scans (2^22 to 2^25): the
# workgroups a pass aims for, tiles per workgroup, workgroup size, reversed runs, and the
# look-back beside them; GPU time per scan in batches of 10 goes to $OUT/sweep.csv (column 8).
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_scan_sweep.sh
# CONFIGS_FILE: one configuration (options of the scan harness) per line, instead of the list
# below; TORCH=1: torch.cumsum on the same sizes, in the same command, into $OUT/torch.csv.
set -u
source "$(dirname "$0")/device_common.sh"
SHAPES=${SHAPES:-4194304,8388608,16777216,33554432}
R="--repeat ${REPEAT:-15} --batch 10 --op add --dtype f32"
while IFS= read -r cfg; do
  [ -z "$cfg" ] && continue
  echo "== $cfg"
  .gpu/scan --shape "$SHAPES" $R $cfg --csv "$OUT/one.csv" >/dev/null 2>"$OUT/err.txt" || tail -2 "$OUT/err.txt"
  # n, batch GPU us per scan
  awk -F, -v c="$cfg" '{printf "%s,%s,%s\n", c, $4, $8}' "$OUT/one.csv" | tee -a "$OUT/sweep.csv"
  rm -f "$OUT/one.csv"
done < <(if [ -n "${CONFIGS_FILE:-}" ]; then cat "$CONFIGS_FILE"; else cat <<'CONFIGS'
--algorithm rts
--algorithm rts --max-groups 512
--algorithm rts --max-groups 2048
--algorithm rts --tiles-per-group 1
--algorithm rts --tiles-per-group 4
--algorithm rts --wg 128
--algorithm rts --runs-bytes 1,0
--algorithm rts --runs-bytes 8388608,268435456
--algorithm lookback
CONFIGS
fi)
if [ "${TORCH:-0}" = 1 ]; then
  python3 "$(dirname "$0")/torch_scan.py" --shape "$SHAPES" --op add --dtype f32 \
    --repeat "${REPEAT:-15}" --batch 10 --csv "$OUT/torch.csv" | tail -n +3 | tee "$OUT/torch.log"
fi
