#!/usr/bin/env bash
# One device run for the full reduction API (see ../shared/gpu/README.md): every test binary on
# the real GPU, then ours and the PyTorch peer, config by config, in the same command.
# Expects release binaries in .gpu/ (sum, and test binaries); writes logs and CSV to $OUT.
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_reductions.sh [quick]
set -u
source "$(dirname "$0")/device_common.sh"
for t in reduce recorder errors pool threads axes special accuracy props shaders; do
  [ -x .gpu/$t ] || continue
  echo "== test $t" >>"$OUT/tests.log"
  # One thread for reduce: if it hangs, the log shows which test.
  extra=(); [ $t = reduce ] && extra=(--test-threads=1)
  timeout 120 .gpu/$t "${extra[@]}" >>"$OUT/tests.log" 2>&1; echo "test $t exit $?" | tee -a "$OUT/tests.log"
done
grep -E "test result|panicked" "$OUT/tests.log"
grep -m1 "GPU tests run on adapter" "$OUT/tests.log"
R="--repeat 30 --batch 10"
# op dtype shapes axis  (axis "all" = whole array)
CONFIGS=(
  "sum f32 67108864 all"
  "sum f32 8192x8192 0"
  "sum f32 8192x8192 1"
  "sum f32 3x16777216 1"
  "sum f32 3x16777216 0"
  "sum f32 16777216x3 0"
  "sum f32 16777216x3 1"
  "sum f32 1x67108864 1"
  "sum f32 67108864x1 0"
  "max f32 67108864 all"
  "argmax f32 67108864 all"
  "argmax f32 8192x8192 1"
  "argmax f32 8192x8192 0"
  "sum f16 67108864 all"
  "sum f16 8192x8192 0"
  "sum bf16 67108864 all"
  "var f32 67108864 all"
  "var f32 8192x8192 1"
  "mean f32 64x1024x1024 0,2"
)
[ "${1:-}" = quick ] && CONFIGS=("${CONFIGS[@]:0:3}")
for cfg in "${CONFIGS[@]}"; do
  set -- $cfg
  ax=(); tax=()
  if [ "$4" != all ]; then ax=(--axis "$4"); tax=(--axis "$4"); fi
  echo "== $cfg" | tee -a "$OUT/ours.log" "$OUT/peer.log"
  .gpu/sum --shape "$3" --op "$1" --dtype "$2" "${ax[@]}" $R --csv "$OUT/ours.csv" | tail -1 | tee -a "$OUT/ours.log"
  python3 benches/torch_peer.py --shape "$3" --op "$1" --dtype "$2" "${tax[@]}" $R --csv "$OUT/peer.csv" | tail -1 | tee -a "$OUT/peer.log"
done
