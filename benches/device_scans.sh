#!/usr/bin/env bash
# One device run for scans (see ../shared/gpu/README.md): the scan test binary on the real GPU,
# then ours and the PyTorch peer, config by config, in the same command.
# Expects release binaries in .gpu/ (scan example; test binaries scan_test, reduce, axes);
# writes logs and CSV to $OUT.   usage (on the device): source .gpu/on-device.sh; bash benches/device_scans.sh
set -u
source "$(dirname "$0")/device_common.sh"
for t in scan_test reduce axes recorder; do
  [ -x .gpu/$t ] || continue
  echo "== test $t" >>"$OUT/tests.log"
  timeout ${TEST_TIMEOUT:-150} .gpu/$t >>"$OUT/tests.log" 2>&1; echo "test $t exit $?" | tee -a "$OUT/tests.log"
done
grep -E "test result|panicked" "$OUT/tests.log" | head -20
R="--repeat ${REPEAT:-30} --batch 10"
# op dtype shapes [extra options for ours]
CONFIGS=(
  "add f32 1048576,16777216,67108864,268435456"
  "add u32 1048576,16777216,67108864,268435456"
  "add i32 268435456"
  "max f32 268435456"
  "add f16 67108864"
  "add f32 8192x8192"
  "add f32 16384x6001"
  "add f32 65536x1024"
  "add f32 1048576x16"
)
[ -n "${CONFIGS_OVERRIDE:-}" ] && IFS=';' read -r -a CONFIGS <<<"$CONFIGS_OVERRIDE"
for cfg in "${CONFIGS[@]}"; do
  set -- $cfg
  op=$1; dt=$2; shp=$3; shift 3
  echo "== $op $dt $shp $*" | tee -a "$OUT/ours.log" "$OUT/peer.log"
  for alg in ${ALGS:-lookback rts}; do
    .gpu/scan --shape "$shp" --op "$op" --dtype "$dt" --algorithm $alg $R "$@" --csv "$OUT/ours.csv" | tail -n +3 | sed "s/^/$alg /" | tee -a "$OUT/ours.log"
  done
  python3 benches/torch_scan.py --shape "$shp" --op "$op" --dtype "$dt" $R --csv "$OUT/peer.csv" | tail -n +3 | tee -a "$OUT/peer.log"
done
