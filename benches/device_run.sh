#!/usr/bin/env bash
# One device run (see ../shared/gpu/README.md): correctness tests on the real GPU, then our sum
# and the torch peer on the same sizes, in the same command. Expects release binaries in .gpu/
# (sum, and the test binaries reduce, recorder, errors, pool) and writes logs and CSV to $OUT.
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_run.sh
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
for t in reduce recorder errors pool; do
  [ -x .gpu/$t ] || continue
  echo "== test $t" | tee -a "$OUT/tests.log"
  timeout 300 .gpu/$t --test-threads 4 >>"$OUT/tests.log" 2>&1; echo "exit $?" | tee -a "$OUT/tests.log"
  grep -E "test result|panicked|adapter" "$OUT/tests.log" | tail -3
done
SIZES_POW2=1048576,4194304,16777216,67108864,268435456
echo "== ours: main job" ; .gpu/sum --sizes 2048,4096,8192,16384 --repeat 50 --batch 10 --csv "$OUT/ours.csv" | tee "$OUT/sum_square.log"
echo "== ours: sweep"; .gpu/sum --n $SIZES_POW2 --repeat 50 --batch 10 --csv "$OUT/ours.csv" | tee "$OUT/sum_pow2.log"
for extra in "${@}"; do echo "== ours: $extra"; .gpu/sum --n $SIZES_POW2 --repeat 30 --batch 10 $extra | tee -a "$OUT/sum_variants.log"; done
echo "== torch"
python3 benches/torch_peer.py --n 4194304,16777216,67108864,268435456,$((2048*2048)),$((8192*8192)),$((16384*16384)),1048576 \
  --repeat 50 --batch 10 --csv "$OUT/peer.csv" | tee "$OUT/peer.log"
