#!/usr/bin/env bash
# Two builds of the scan kernels side by side, with torch, in one command: the scan tests on the
# GPU (a release test binary, .gpu/test_scan), then ROUNDS rounds of torch.cumsum (eager, CUDA
# graph on one stream and on 10 streams), each build's batches with Auto (side by side, and
# with --serial one after another), each build's look-back forced up to 2^24, and the first
# build's look-back in tiles of 16384 (forced, and as Auto takes it); then how many look-back
# workgroups the first build finds running at once (tiles of 8192 and 16384); then each
# build's first calls (cumsum and all families, cold and with the driver's cache); DEEP=0 leaves
# out the tiles of 16384. STEPS picks
# some of them (default "tests scans residency first"; a device command may run 10 minutes at
# most, so two commands may be needed: STEPS="tests scans", then STEPS="residency first").
# Builds are .gpu/<scan binary>:<first_call binary>:<tag>, e.g. BUILDS="scan:first_call:new
# scan_old:first_call_old:old".
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_scans_ab.sh
set -u
source "$(dirname "$0")/device_common.sh"
BUILDS=${BUILDS:-scan:first_call:new scan_old:first_call_old:old}
STEPS=" ${STEPS:-tests scans residency first} "
step() { [[ "$STEPS" == *" $1 "* ]]; }
if step tests && [ -x .gpu/test_scan ]; then
  timeout 240 .gpu/test_scan 2>&1 | tail -5 | tee "$OUT/tests.txt"
fi
R="--repeat 20 --batch 10"
N=${N:-65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456}
LB=${LB:-65536,262144,1048576,2097152,4194304,8388608,16777216}
step scans && for round in $(seq 1 "${ROUNDS:-1}"); do
  echo "== round $round: torch" | tee -a "$OUT/log.txt"
  timeout 150 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R \
    --csv "$OUT/torch_$round.csv" 2>&1 | tail -n +2 | tee -a "$OUT/log.txt"
  for b in $BUILDS; do
    bin=${b%%:*}; tag=${b##*:}
    # name|algorithm|flags (commas for spaces); the look-back in tiles of 16384 (--lookback-wg
    # 1024) only in the first build.
    modes="auto|auto| auto_serial|auto|--serial lookback|lookback| lookback_serial|lookback|--serial"
    [ "${DEEP:-1}" = 1 ] && [ "$b" = "${BUILDS%% *}" ] && modes="$modes deep|lookback|--lookback-wg,1024 \
      deep_serial|lookback|--lookback-wg,1024,--serial deep_auto|auto|--lookback-wg,1024"
    for m in $modes; do
      name=${m%%|*}; rest=${m#*|}; alg=${rest%%|*}; extra=${rest#*|}; extra=${extra//,/ }
      n=$N; [ "$alg" = lookback ] && n=$LB
      echo "== round $round: ours $tag $name" | tee -a "$OUT/log.txt"
      timeout 100 ".gpu/$bin" --n $n $R $extra --algorithm "$alg" \
        --csv "$OUT/${tag}_${name}_$round.csv" 2>&1 | tail -n +3 | tee -a "$OUT/log.txt"
    done
  done
done
# How many look-back workgroups run at once (the first build's harness: --diag 4), with the wait
# and without it (--diag 6).
first=${BUILDS%% *}
step residency && for wg in 512 1024; do
  for d in 4 6; do
    echo "== look-back workgroups running at once, --lookback-wg $wg --diag $d" \
      | tee -a "$OUT/log.txt"
    timeout 60 ".gpu/${first%%:*}" --n $LB --repeat 3 --algorithm lookback --lookback-wg $wg \
      --diag $d 2>&1 | grep -E "running|^ +[0-9]" | tee -a "$OUT/log.txt"
  done
done
step first && for b in $BUILDS; do
  rest=${b#*:}; fc=${rest%%:*}; tag=${b##*:}
  echo "== first calls: $tag" | tee -a "$OUT/log.txt"
  timeout 120 ".gpu/$fc" --families cumsum,all --modes cold,driver --runs 3 \
    --csv "$OUT/first_call_$tag.csv" 2>&1 | tail -5 | tee -a "$OUT/log.txt"
done
