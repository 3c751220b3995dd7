#!/usr/bin/env bash
# One device run (see ../shared/gpu/README.md): correctness tests on the real GPU, then our
# reductions and the PyTorch peer on the same sizes, in the same command. Expects release
# binaries in .gpu/ (sum, and test binaries reduce, recorder, errors, pool, threads); writes logs
# and CSV to $OUT.
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_run.sh [extra sum flags...]
# Each extra argument is one more set of flags for an extra sweep of ours (tuning experiments).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
for t in reduce recorder errors pool threads; do
  [ -x .gpu/$t ] || continue
  echo "== test $t" >>"$OUT/tests.log"
  timeout 60 .gpu/$t >>"$OUT/tests.log" 2>&1; echo "test $t exit $?" | tee -a "$OUT/tests.log"
done
grep -E "test result|panicked" "$OUT/tests.log"
grep -m1 "GPU tests run on adapter" "$OUT/tests.log"
SWEEP=1048576,4194304,16777216,67108864,268435456
echo "== ours: main job (sum f32, square sizes)"
.gpu/sum --sizes 2048,4096,8192,16384 --repeat 50 --batch 10 --csv "$OUT/ours.csv" | tee "$OUT/ours.log"
for cfg in "sum f32" "max f32" "sum i32"; do
  set -- $cfg
  echo "== ours: $1 $2"
  .gpu/sum --n $SWEEP --op $1 --dtype $2 --repeat 50 --batch 10 --csv "$OUT/ours.csv" | tee -a "$OUT/ours.log"
  echo "== torch: $1 $2"
  python3 benches/torch_peer.py --n $SWEEP,$((2048*2048)),$((8192*8192)),$((16384*16384)) --op $1 --dtype $2 \
    --repeat 50 --batch 10 --csv "$OUT/peer.csv" | tee -a "$OUT/peer.log"
done
