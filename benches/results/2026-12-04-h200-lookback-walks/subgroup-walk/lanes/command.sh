# Run 7: the look-back walked by one subgroup with windows of 16 and 4 states a lane (scan_sg16,
# scan_sg4) against the current walk (scan), forced to the look-back, with reduce-then-scan and
# torch; twice in turn; then the counts of the subgroup walks.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=65536,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
timeout 120 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for round in 1 2; do
  for b in scan scan_sg16 scan_sg4; do
    timeout 100 .gpu/$b --n $N $R --algorithm lookback --csv $OUT/${b}_lb_$round.csv 2>&1 | tail -n +3 | sed "s/^/$b lb r$round /" | tee -a $OUT/log.txt
  done
  timeout 100 .gpu/scan --n $N $R --algorithm rts --csv $OUT/rts_$round.csv 2>&1 | tail -n +3 | sed "s/^/rts r$round /" | tee -a $OUT/log.txt
done
for b in scan scan_sg16 scan_sg4; do
timeout 60 .gpu/$b --n 262144,1048576,4194304,16777216,268435456 --repeat 3 --batch 2 --algorithm lookback --diag 1 2>&1 | grep "look-back over" | sed "s/^/diag $b /" | tee -a $OUT/log.txt
done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
