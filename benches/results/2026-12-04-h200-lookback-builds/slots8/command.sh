# Run 3: the look-back's tile of 8192 on 256 invocations of 8 slots (scan_k8) against the tree's
# 512 invocations of 4 (scan), and reduce-then-scan, in turn, twice; torch in the same command.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=524288,1048576,2097152,3145728,4194304,8388608,16777216
echo "== torch" | tee -a $OUT/log.txt
timeout 100 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for round in 1 2; do
  for b in scan scan_k8; do
    timeout 100 .gpu/$b --n $N $R --algorithm lookback --csv $OUT/lb_${b}_$round.csv 2>&1 | tail -n +3 | sed "s/^/$b r$round /" | tee -a $OUT/log.txt
  done
  timeout 100 .gpu/scan --n $N $R --algorithm rts --csv $OUT/rts_$round.csv 2>&1 | tail -n +3 | sed "s/^/rts r$round /" | tee -a $OUT/log.txt
done
for b in scan scan_k8; do timeout 60 .gpu/$b --n 1048576,2097152,4194304 --repeat 3 --batch 1 --algorithm lookback --diag 1 2>&1 | grep -i "look-back over" | sed "s/^/$b /" | tee -a $OUT/log.txt; done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
