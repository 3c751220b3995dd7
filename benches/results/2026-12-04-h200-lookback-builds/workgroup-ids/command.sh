# Run 2: scans with the batches warmed up, against torch from a CUDA graph; the look-back with
# tiles numbered by workgroup id (--diag 4) against the counter, in turn, twice.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=65536,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
ROWS=8192x8192,16384x6001,65536x1024,4096x4097
echo "== torch" | tee -a $OUT/log.txt
timeout 150 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
timeout 100 python3 benches/torch_scan.py --shape $ROWS --op add --dtype f32 $R --csv $OUT/torch_rows.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
echo "== ours" | tee -a $OUT/log.txt
timeout 100 .gpu/scan --n $N $R --algorithm auto --csv $OUT/ours.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
timeout 100 .gpu/scan --shape $ROWS $R --algorithm auto --csv $OUT/ours_rows.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
echo "== lookback: counter (diag 0) and workgroup ids (diag 4)" | tee -a $OUT/log.txt
L=65536,262144,1048576,2097152,4194304,16777216
for round in 1 2; do for d in 0 4; do
  timeout 100 .gpu/scan --n $L $R --algorithm lookback --diag $d --csv $OUT/lb_${d}_$round.csv 2>&1 | tail -n +3 | sed "s/^/lb$d r$round /" | tee -a $OUT/log.txt
done; done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
