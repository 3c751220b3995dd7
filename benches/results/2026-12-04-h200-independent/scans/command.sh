# Scans of one recording that share no array, before and after they stopped waiting for each
# other through the context's one look-back state buffer and one stand-in at binding 4. The
# scan tests that check it on a real GPU first; then two rounds of: torch (eager, CUDA graph,
# and the graph's scans spread over 10 streams), this build's batch (scans side by side), its
# batch with --serial (each scan waits for the one before), and the build before (scan_old).
D=$OUT; OUT=$D/r; source benches/device_common.sh
.gpu/scan_tests independent_scans lookback_states_stay_clean 2>&1 | tail -5 | tee $OUT/tests.txt
R="--repeat 20 --batch 10"
N=65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
for round in 1 2; do
  echo "== round $round: torch" | tee -a $OUT/log.txt
  timeout 150 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch_$round.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
  for b in scan:new scan:serial scan_old:old; do
    bin=${b%%:*}; tag=${b##*:}; extra=""; [ $tag = serial ] && extra=--serial
    echo "== round $round: ours $tag" | tee -a $OUT/log.txt
    timeout 100 .gpu/$bin --n $N $R $extra --algorithm auto --csv $OUT/ours_${tag}_$round.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
  done
done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
