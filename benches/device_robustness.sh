#!/usr/bin/env bash
# One device run for robustness (see ../shared/gpu/README.md): every test binary on the real GPU,
# twice (to catch intermittent hangs: each run has a timeout), the out-of-memory test that is
# ignored on lavapipe, and a whole-array sum of 2^30 f32 (4 GiB: larger than one storage binding
# where the device's limit is below that) with the PyTorch peer on the same size.
# Expects .gpu/tests.tar.xz (stripped release test binaries under t/) and .gpu/sum.
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_robustness.sh
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/wr
python3 -c "import tarfile; tarfile.open('.gpu/tests.tar.xz').extractall('/tmp/wr')"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
for round in ${ROUNDS:-1 2}; do
  for t in errors pool recorder threads props large reduce scan axes special accuracy; do
    [ -x /tmp/wr/t/$t ] || continue
    s=$(date +%s%N)
    timeout 120 /tmp/wr/t/$t --skip msl_of >"$OUT/test_${t}_$round.log" 2>&1
    rc=$?
    printf "round %s %-9s exit %3s %6d ms %s\n" "$round" "$t" "$rc" "$(( ($(date +%s%N) - s) / 1000000 ))" \
      "$(grep -E 'test result' "$OUT/test_${t}_$round.log" | tail -1)" | tee -a "$OUT/tests.txt"
  done
done
grep -m1 "GPU tests run on adapter" "$OUT"/test_errors_1.log
echo "== out of memory"
timeout 180 /tmp/wr/t/oom --ignored --nocapture 2>&1 | grep -vE "^$" | tail -8 | tee "$OUT/oom.log"
echo "== sum of 2^30 f32 (ours, then torch)"
timeout 200 .gpu/sum --n 1073741824 --repeat 10 --batch 4 --csv "$OUT/ours_2e30.csv" 2>&1 | tail -6 | tee "$OUT/ours_2e30.log"
timeout 120 python3 benches/torch_peer.py --n 1073741824 --op sum --dtype f32 --repeat 10 --batch 4 \
  --csv "$OUT/peer_2e30.csv" 2>&1 | tail -4 | tee "$OUT/peer_2e30.log"
