D=$OUT; OUT=$D/r; source benches/device_common.sh
N=1048576,2097152,4194304,8388608,16777216,33554432,67108864
R="--repeat 20 --batch 10"
echo "== torch" | tee -a $OUT/log.txt
timeout 100 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
echo "== ours" | tee -a $OUT/log.txt
timeout 60 .gpu/scan --n $N $R --algorithm auto --csv $OUT/ours.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
tar czf $D/r.tgz -C $D r; rm -rf $D/r
