#!/usr/bin/env bash
# Device run: every test binary (new kernels), then old (26177e8) vs new binaries in the same call.
set -u
source .gpu/on-device.sh
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
python3 -c "import tarfile; tarfile.open('.gpu/bins.tar.xz').extractall('.gpu')"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 500 > $OUT/clocks.csv &
R="--repeat 30 --batch 10"
for shp in 1048576 4194304 16777216 268435456 8192x8192 16384x6001; do
  for alg in lookback rts; do
    for b in scan_old scan; do
      echo "== $b $alg $shp"; .gpu/$b --shape $shp --algorithm $alg $R | tail -n +3
    done
  done
  python3 benches/torch_scan.py --shape $shp $R | tail -n +3
done 2>&1 | tee $OUT/scans.log
for op in sum max argmax; do
  for b in sum_old sum; do
    echo "== $b $op"; .gpu/$b --n 1048576,16777216,268435456 --op $op --repeat 30 --batch 10 | tail -n +2
  done
  python3 benches/torch_peer.py --n 1048576,16777216,268435456 --op $op --dtype f32 --repeat 30 --batch 10 | tail -n +2
done 2>&1 | tee $OUT/reduce.log
for t in .gpu/t_*; do
  n=$(basename $t)
  timeout ${TT:-60} $t --test-threads=4 > /tmp/$n.log 2>&1; rc=$?
  echo "$n exit $rc: $(grep -E '^test result' /tmp/$n.log | tail -1)"
  { echo "===== $n exit $rc"; cat /tmp/$n.log; } >> $OUT/tests_all.log
done | tee $OUT/tests.txt
grep -h -m1 "GPU tests run on adapter" /tmp/t_*.log | head -1
