#!/usr/bin/env bash
# Batches of many operations that share no array, and one blocking call beside wgpu's floor,
# each build taking turns with the others in one command. The reductions: a suite of batches of
# 10, 100 and 300 (torch's graph on one stream and on 10 streams measured once, first), every
# build of SPEED in turn, ROUNDS times. The blocking sum of 2^20: one process of every build of
# LATENCY in turn, LAT_ROUNDS times (wgpu's floor differs from process to process, so only the
# ratio within a process compares builds), then torch's x.sum().item().
# Builds are .gpu/<binary>:<tag>[:<flags>] (release builds of bench/'s speed and latency
# harnesses; flags with commas for spaces), e.g. SPEED="speed:new speed:two:--two-pass-flat",
# LATENCY="latency:new latency_old:old".
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_batches.sh
set -u
source "$(dirname "$0")/device_common.sh"
SPEED=${SPEED:-speed:new}
LATENCY=${LATENCY:-latency:new}
cat >"$OUT/suite.txt" <<'S'
sum    f32  16384       all 10
sum    f32  65536       all 10
sum    f32  65536       all 100
sum    f32  65536       all 300
sum    f32  1048576     all 10
sum    f32  1048576     all 100
sum    f32  16777216    all 10
argmax f32  1048576     all 10
argmax f32  16777216    all 10
argmax f32  268435456   all 10
S
timeout 120 python3 benches/torch_peer.py --suite "$OUT/suite.txt" --csv "$OUT/peer.csv" 2>&1 \
  | tail -n +2 | tee -a "$OUT/log.txt"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for b in $SPEED; do
    bin=${b%%:*}; rest=${b#*:}; tag=${rest%%:*}; flags=""
    [ "$rest" != "$tag" ] && flags=${rest#*:}
    echo "== round $round: ours $tag ${flags//,/ }" | tee -a "$OUT/log.txt"
    timeout 80 ".gpu/$bin" --suite "$OUT/suite.txt" --peer "$OUT/peer.csv" ${flags//,/ } \
      --csv "$OUT/speed_${tag}_$round.csv" 2>&1 | tee -a "$OUT/log.txt" | tail -14
  done
done
for round in $(seq 1 "${LAT_ROUNDS:-3}"); do
  for b in $LATENCY; do
    bin=${b%%:*}; rest=${b#*:}; tag=${rest%%:*}; flags=""
    [ "$rest" != "$tag" ] && flags=${rest#*:}
    echo "== latency $tag, round $round" | tee -a "$OUT/log.txt"
    timeout 40 ".gpu/$bin" --n 1048576 --repeat "${REPEAT:-300}" ${flags//,/ } 2>&1 \
      | tee "$OUT/latency_${tag}_$round.txt" | tee -a "$OUT/log.txt" \
      | grep -E "one-liner|floor|GPU time|submit  "
  done
done
timeout 60 python3 benches/torch_peer.py --n 1048576 --repeat "${REPEAT:-300}" 2>&1 \
  | tee "$OUT/torch_latency.txt" | tail -4
