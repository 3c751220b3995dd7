#!/usr/bin/env bash
# One device run of what a user meets around the kernels: time to the first result per
# operation family in fresh processes (first_call), one blocking call against wgpu's own empty
# submit and wait (latency, overhead), and upload + sum + read of 2^26 f32 by each upload path
# (roundtrip). Expects .gpu/first_call, latency, overhead, roundtrip (release builds).
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_overheads.sh
set -u
source "$(dirname "$0")/device_common.sh"
.gpu/first_call --families ${FAMILIES:-sum,argmax,sum_axis0,cumsum,all} --runs ${RUNS:-3} \
  --csv "$OUT/first_call.csv" 2>"$OUT/first_call.err" | tee "$OUT/first_call.log"
.gpu/latency --repeat ${REPEAT:-300} 2>&1 | tee "$OUT/latency.log"
.gpu/overhead --repeat ${REPEAT:-300} 2>&1 | tee "$OUT/overhead.log"
python3 benches/torch_peer.py --n 1048576 --repeat ${REPEAT:-300} 2>&1 | tee "$OUT/torch_latency.log" || true
.gpu/roundtrip --repeat ${RT_REPEAT:-9} --csv "$OUT/roundtrip.csv" 2>&1 | tee "$OUT/roundtrip.log"
