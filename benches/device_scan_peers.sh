#!/usr/bin/env bash
# One device run of whole-array f32 prefix sums from 2^16 to 2^28: ours by each algorithm
# (look-back; reduce-then-scan with and without the fused downsweep; Auto), torch.cumsum, and
# the Decoupled Fallback scan of GPUPrefixSums (its WebGPU build, u32 inputs of ones, GPU time
# of single scans from its own timestamps; build it apart and carry it as .gpu/gpuprefixsums).
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_scan_peers.sh
set -u
source "$(dirname "$0")/device_common.sh"
LOGS=${LOGS:-16,18,20,21,22,23,24,25,28}
SHAPES=$(python3 -c "print(','.join(str(1 << int(p)) for p in '$LOGS'.split(',')))")
R="--repeat ${REPEAT:-20} --batch 10"
for run in "lookback:--algorithm lookback" "rts:--algorithm rts" "rts3:--algorithm rts --fused-tiles 0" "auto:--algorithm auto"; do
  name=${run%%:*}; opts=${run#*:}
  echo "== ours $name" | tee -a "$OUT/ours.log"
  .gpu/scan --shape "$SHAPES" --op add --dtype f32 $opts $R --csv "$OUT/ours_$name.csv" 2>&1 | tail -n +3 | tee -a "$OUT/ours.log"
done
echo "== torch" | tee -a "$OUT/peer.log"
python3 benches/torch_scan.py --shape "$SHAPES" --op add --dtype f32 $R --csv "$OUT/torch.csv" 2>&1 | tail -n +3 | tee -a "$OUT/peer.log"
if [ -x .gpu/gpuprefixsums ]; then
  echo "== GPUPrefixSums csdldf (log2 n, us per scan)" | tee -a "$OUT/gps.log"
  for p in ${LOGS//,/ }; do
    out=$(timeout 120 .gpu/gpuprefixsums csdldf "$p" ${GPS_BATCH:-51} 2>&1)
    speed=$(echo "$out" | sed -n 's/^Estimated speed \(.*\) ele\/s/\1/p')
    ok=$(echo "$out" | grep -c "ALL TESTS PASSED")
    us=$(python3 -c "print(f'{(1 << $p) / float(\"$speed\") * 1e6:.1f}')" 2>/dev/null || echo "-")
    echo "2^$p $us us passed=$ok" | tee -a "$OUT/gps.log"
  done
fi
