#!/usr/bin/env bash
# One device run comparing two builds of the kernels, side by side with PyTorch, in the same
# command (see ../shared/gpu/README.md): release binaries of the `sum` and `scan` examples of
# the earlier build as .gpu/sum_old and .gpu/scan_old, of the current one as .gpu/sum and
# .gpu/scan. Each case runs old, new, then torch, so all three see the same clocks.
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_ab.sh
set -u
source "$(dirname "$0")/device_common.sh"
R="--repeat ${REPEAT:-30} --batch 10"
# Reductions: op dtype shape axes (axes "all" for the whole array).
REDUCTIONS=(
  "sum f32 1048576,16777216,268435456 all"
  "max f32 1048576,16777216,268435456 all"
  "argmax f32 1048576,16777216,268435456 all"
  "min i32 67108864 all"
  "sum f32 8192x8192 0"
  "sum f32 8192x8192 1"
  "sum f16 8192x8192 0"
  "argmax f32 8192x8192 1"
  "var f32 8192x8192 0"
  "mean f32 4096x16384 1"
)
for cfg in "${REDUCTIONS[@]}"; do
  set -- $cfg
  op=$1; dt=$2; shp=$3; ax=$4
  if [ "$ax" = all ]; then sel=(--n "$shp"); peer=(--n "$shp"); else sel=(--shape "$shp" --axis "$ax"); peer=(--shape "$shp" --axis "$ax"); fi
  for b in sum_old sum; do
    echo "== $b $op $dt $shp $ax"
    .gpu/$b "${sel[@]}" --op "$op" --dtype "$dt" $R | tail -n +3
  done
  echo "== torch $op $dt $shp $ax"
  python3 benches/torch_peer.py "${peer[@]}" --op "$op" --dtype "$dt" $R | tail -n +2
done 2>&1 | tee "$OUT/reduce_ab.log"
# Scans: op dtype shape.
SCANS=(
  "add f32 1048576,4194304,16777216,268435456"
  "add f32 8192x8192,16384x6001"
  "max f32 268435456"
  "add i32 67108864"
)
for cfg in "${SCANS[@]}"; do
  set -- $cfg
  op=$1; dt=$2; shp=$3
  for alg in lookback rts; do
    for b in scan_old scan; do
      echo "== $b $alg $op $dt $shp"
      .gpu/$b --shape "$shp" --op "$op" --dtype "$dt" --algorithm $alg $R | tail -n +3
    done
  done
  echo "== torch $op $dt $shp"
  python3 benches/torch_scan.py --shape "$shp" --op "$op" --dtype "$dt" $R | tail -n +3
done 2>&1 | tee "$OUT/scan_ab.log"
