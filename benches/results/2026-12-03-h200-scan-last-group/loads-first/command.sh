D=$OUT; OUT=$D/r; source benches/device_common.sh
N=2097152,4194304,8388608,16777216,33554432,67108864
R="--repeat 20 --batch 10"
i=0
run() { i=$((i+1)); echo "== $i $*" | tee -a $OUT/log.txt; timeout 120 .gpu/scan $R --n $N --algorithm auto "$@" --csv $OUT/c$i.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt; }
for r in 1 2; do
run
run --no-reduction-carries
run --fused-tiles 16384
run --fused-tiles 16384 --no-reduction-carries
done
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
tar czf $D/r.tgz -C $D r; rm -rf $D/r
