# Run 5: the look-back with D steps of workgroup work and no loads between its tile's publication
# and its walk (--diag D*256), D = 0, 1, 2, 4, 8, in turn, twice; reduce-then-scan and torch.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=524288,1048576,2097152,3145728,4194304,8388608,16777216
timeout 100 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for round in 1 2; do
  for d in 0 1 2 4 8; do
    timeout 100 .gpu/scan_delay --n $N $R --algorithm lookback --diag $((d * 256)) --csv $OUT/delay_${d}_$round.csv 2>&1 | tail -n +3 | sed "s/^/delay$d r$round /" | tee -a $OUT/log.txt
  done
  timeout 100 .gpu/scan_delay --n $N $R --algorithm rts --csv $OUT/rts_$round.csv 2>&1 | tail -n +3 | sed "s/^/rts r$round /" | tee -a $OUT/log.txt
done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
