#!/usr/bin/env bash
# Device run: the errors test binary before (t_errors) and after (t_errors2) the map-failure
# fix, 30 runs each with 4 test threads, counting failed runs.
set -u
source .gpu/on-device.sh
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -c "import tarfile; tarfile.open('.gpu/err.tar.xz').extractall('.gpu')"
for b in t_errors t_errors2; do
  pass=0; fail=0
  for i in $(seq 1 30); do
    if timeout 60 .gpu/$b --test-threads=4 > /tmp/e.log 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); { echo "== $b run $i"; grep -A3 panicked /tmp/e.log; } >> $OUT/failures.log; fi
  done
  echo "$b: $pass of 30 runs passed, $fail failed" | tee -a $OUT/errors_runs.txt
done
grep -m1 "GPU tests run on adapter" /tmp/e.log
