#!/usr/bin/env bash
# Two builds of the scan kernels side by side, with torch, in one command: the scan tests on the
# GPU (a release test binary, .gpu/test_scan), then ROUNDS rounds of torch.cumsum (eager, CUDA
# graph on one stream and on 10 streams), each build's batches with Auto (side by side, and
# with --serial one after another), and each build's look-back forced up to 2^23; then how
# many look-back workgroups the first build finds running at once; then each build's first
# calls (cumsum and all families, cold and with the driver's cache). Builds are
# .gpu/<scan binary>:<first_call binary>:<tag>, e.g. BUILDS="scan:first_call:new
# scan_old:first_call_old:old".
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_scans_ab.sh
set -u
source "$(dirname "$0")/device_common.sh"
BUILDS=${BUILDS:-scan:first_call:new scan_old:first_call_old:old}
if [ -x .gpu/test_scan ]; then
  timeout 240 .gpu/test_scan 2>&1 | tail -5 | tee "$OUT/tests.txt"
fi
R="--repeat 20 --batch 10"
N=${N:-65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456}
LB=${LB:-65536,262144,1048576,2097152,4194304,8388608}
for round in $(seq 1 "${ROUNDS:-1}"); do
  echo "== round $round: torch" | tee -a "$OUT/log.txt"
  timeout 150 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R \
    --csv "$OUT/torch_$round.csv" 2>&1 | tail -n +2 | tee -a "$OUT/log.txt"
  for b in $BUILDS; do
    bin=${b%%:*}; tag=${b##*:}
    for mode in auto auto:--serial lookback lookback:--serial; do
      alg=${mode%%:*}; extra=""; [ "$mode" != "$alg" ] && extra=${mode#*:}
      n=$N; [ "$alg" = lookback ] && n=$LB
      name="${tag}_${alg}${extra:+_serial}_$round"
      echo "== round $round: ours $tag $alg $extra" | tee -a "$OUT/log.txt"
      timeout 100 ".gpu/$bin" --n $n $R $extra --algorithm "$alg" --csv "$OUT/$name.csv" 2>&1 \
        | tail -n +3 | tee -a "$OUT/log.txt"
    done
  done
done
# How many look-back workgroups run at once (the first build's harness: --diag 4), with the wait
# and without it (--diag 6).
first=${BUILDS%% *}
for d in 4 6; do
  echo "== look-back workgroups running at once, --diag $d" | tee -a "$OUT/log.txt"
  timeout 60 ".gpu/${first%%:*}" --n $LB --repeat 3 --algorithm lookback --diag $d 2>&1 \
    | grep -E "running|^ +[0-9]" | tee -a "$OUT/log.txt"
done
for b in $BUILDS; do
  rest=${b#*:}; fc=${rest%%:*}; tag=${b##*:}
  echo "== first calls: $tag" | tee -a "$OUT/log.txt"
  timeout 120 ".gpu/$fc" --families cumsum,all --modes cold,driver --runs 3 \
    --csv "$OUT/first_call_$tag.csv" 2>&1 | tail -5 | tee -a "$OUT/log.txt"
done
