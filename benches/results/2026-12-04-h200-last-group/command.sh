# Whole-array reductions in one pass whose last workgroup combines the others' values, against
# the two passes of the build before (speed_slots: operations side by side, two passes) and of
# the build before that (speed_old: every dispatch waiting for the one before). The reduction
# tests on the H200 first; then the suite (torch once, then the three builds in turn, twice)
# and one blocking sum of 2^20 beside wgpu's floor (latency, both last builds).
D=$OUT; OUT=$D/lg; source benches/device_common.sh
.gpu/reduce_tests 2>&1 | tail -4 | tee $OUT/tests.txt
timeout 120 python3 benches/torch_peer.py --suite benches/speed_suite.txt --csv $OUT/peer.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for round in 1 2; do
  for b in speed:new speed_slots:slots speed_old:old; do
    bin=${b%%:*}; tag=${b##*:}
    echo "== round $round: ours $tag" | tee -a $OUT/log.txt
    timeout 100 .gpu/$bin --peer $OUT/peer.csv --csv $OUT/speed_${tag}_$round.csv 2>&1 | tee -a $OUT/log.txt | tail -22
  done
done
for b in latency:new latency_slots:slots; do
  bin=${b%%:*}; tag=${b##*:}
  echo "== latency $tag" | tee -a $OUT/log.txt
  timeout 60 .gpu/$bin --n 1048576 --repeat 200 2>&1 | tee $OUT/latency_$tag.txt | tee -a $OUT/log.txt | tail -12
done
tar czf $D/lg.tgz -C $D lg; rm -rf $D/lg
