# Sums of 2^18-2^22 f32 in batches of 10, this build and the build before in turn, four times
# each, torch once before (the suite's lines of those sizes).
D=$OUT; OUT=$D/ab; source benches/device_common.sh
grep -E "^sum +f32 +(262144|1048576|4194304) " benches/speed_suite.txt > $OUT/suite.txt
timeout 60 python3 benches/torch_peer.py --suite $OUT/suite.txt --csv $OUT/peer.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for round in 1 2 3 4; do
  for b in speed:new speed_old:old; do
    bin=${b%%:*}; tag=${b##*:}
    echo "== round $round: ours $tag" | tee -a $OUT/log.txt
    timeout 60 .gpu/$bin --suite $OUT/suite.txt --peer $OUT/peer.csv --csv $OUT/speed_${tag}_$round.csv 2>&1 | tail -4 | tee -a $OUT/log.txt
  done
done
tar czf $D/ab.tgz -C $D ab; rm -rf $D/ab
