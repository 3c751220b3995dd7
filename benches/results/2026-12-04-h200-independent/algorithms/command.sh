# Second command: each algorithm forced, with the batch's scans side by side and --serial, at
# 2^19-2^25; then the reduction suite (torch_peer.py --suite with its graph spread over 10
# streams; speed with this build and with the build before, speed_old), once.
D=$OUT; OUT=$D/r2; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=524288,1048576,2097152,4194304,8388608,16777216,33554432
for round in 1 2; do
  for alg in lookback rts; do
    for extra in "" --serial; do
      tag=${alg}${extra:+_serial}
      echo "== round $round: ours $tag" | tee -a $OUT/log.txt
      timeout 60 .gpu/scan --n $N $R $extra --algorithm $alg --csv $OUT/ours_${tag}_$round.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
    done
  done
done
for round in 1; do
  echo "== round $round: reductions, torch" | tee -a $OUT/log.txt
  timeout 120 python3 benches/torch_peer.py --suite benches/speed_suite.txt --csv $OUT/peer_$round.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
  for b in speed:new speed_old:old; do
    bin=${b%%:*}; tag=${b##*:}
    echo "== round $round: reductions, ours $tag" | tee -a $OUT/log.txt
    timeout 100 .gpu/$bin --peer $OUT/peer_$round.csv --csv $OUT/speed_${tag}_$round.csv 2>&1 | tee -a $OUT/log.txt | tail -30
  done
done
tar czf $D/r2.tgz -C $D r2; rm -rf $D/r2
