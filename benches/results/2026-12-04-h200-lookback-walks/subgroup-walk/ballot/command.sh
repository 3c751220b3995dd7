# Run 6: the look-back walked by one subgroup (scan_sg) against the current walk (scan), both
# forced to the look-back, with reduce-then-scan and torch; twice in turn. Then correctness of
# the subgroup walk across types and ops, and its counts at a few sizes.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=65536,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
timeout 120 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for round in 1 2; do
  for b in scan scan_sg; do
    timeout 100 .gpu/$b --n $N $R --algorithm lookback --csv $OUT/${b}_lb_$round.csv 2>&1 | tail -n +3 | sed "s/^/$b lb r$round /" | tee -a $OUT/log.txt
  done
  timeout 100 .gpu/scan --n $N $R --algorithm rts --csv $OUT/rts_$round.csv 2>&1 | tail -n +3 | sed "s/^/rts r$round /" | tee -a $OUT/log.txt
done
for t in "--dtype i32 --op add" "--dtype u32 --op add" "--dtype f32 --op min" "--dtype i32 --op max" "--dtype f16 --op add --exclusive" "--dtype u32 --op max --exclusive"; do
  timeout 60 .gpu/scan_sg --n 65537,1048583,4194301,33554435 --repeat 3 --batch 2 --algorithm lookback $t 2>&1 | tail -n +3 | sed "s/^/check $t /" | tee -a $OUT/log.txt
done
timeout 60 .gpu/scan_sg --n 1048576,4194304,268435456 --repeat 3 --batch 2 --algorithm lookback --diag 1 2>&1 | tail -n 30 | sed "s/^/diag /" | tee -a $OUT/log.txt
tar czf $D/r.tgz -C $D r; rm -rf $D/r
