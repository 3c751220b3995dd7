# Run 1: torch from a CUDA graph beside the reductions table and the scans not measured that way yet;
# the look-back's wait at one wave (2^21) and two (2^22).
D=$OUT
( OUT=$D/red; REPEAT=30 bash benches/device_speed.sh ) > $D/red.log 2>&1
OUT=$D/scan; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=65536,262144,524288,1048576,268435456
echo "== torch" | tee -a $OUT/log.txt
timeout 120 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
timeout 120 python3 benches/torch_scan.py --shape 8192x8192,16384x6001,65536x1024,4096x4097 --op add --dtype f32 $R --csv $OUT/torch_rows.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
echo "== ours" | tee -a $OUT/log.txt
timeout 90 .gpu/scan --n $N $R --algorithm auto --csv $OUT/ours.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
timeout 90 .gpu/scan --shape 8192x8192,16384x6001,65536x1024,4096x4097 $R --algorithm auto --csv $OUT/ours_rows.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
echo "== lookback wait" | tee -a $OUT/log.txt
for d in 0 2; do timeout 60 .gpu/scan --n 1048576,2097152,4194304 $R --algorithm lookback --diag $d 2>&1 | tail -n +3 | sed "s/^/diag$d /" | tee -a $OUT/log.txt; done
timeout 60 .gpu/scan --n 1048576,2097152,4194304 $R --algorithm rts 2>&1 | tail -n +3 | sed "s/^/rts /" | tee -a $OUT/log.txt
