# Third command: scans along rows (this build side by side and --serial, the build before,
# torch with its graph spread over 10 streams), two rounds; then the reduction suite's second
# round (as in command2.sh).
D=$OUT; OUT=$D/r3; source benches/device_common.sh
R="--repeat 20 --batch 10"
ROWS=8192x8192,16384x6001,65536x1024,4096x4097
for round in 1 2; do
  echo "== round $round: torch rows" | tee -a $OUT/log.txt
  timeout 100 python3 benches/torch_scan.py --shape $ROWS --op add --dtype f32 $R --csv $OUT/torch_rows_$round.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
  for b in scan:new scan:serial scan_old:old; do
    bin=${b%%:*}; tag=${b##*:}; extra=""; [ $tag = serial ] && extra=--serial
    echo "== round $round: ours rows $tag" | tee -a $OUT/log.txt
    timeout 100 .gpu/$bin --shape $ROWS $R $extra --algorithm auto --csv $OUT/ours_rows_${tag}_$round.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
  done
done
round=2
echo "== round $round: reductions, torch" | tee -a $OUT/log.txt
timeout 120 python3 benches/torch_peer.py --suite benches/speed_suite.txt --csv $OUT/peer_$round.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for b in speed:new speed_old:old; do
  bin=${b%%:*}; tag=${b##*:}
  echo "== round $round: reductions, ours $tag" | tee -a $OUT/log.txt
  timeout 100 .gpu/$bin --peer $OUT/peer_$round.csv --csv $OUT/speed_${tag}_$round.csv 2>&1 | tee -a $OUT/log.txt | tail -3
done
tar czf $D/r3.tgz -C $D r3; rm -rf $D/r3
