D=$OUT; OUT=$D/r; source benches/device_common.sh
N=2097152,4194304,8388608,16777216,33554432
R="--repeat 20 --batch 10"
i=0
run() { i=$((i+1)); echo "== $i $*" | tee -a $OUT/log.txt; timeout 120 .gpu/scan $R --n $N --algorithm auto "$@" --csv $OUT/c$i.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt; }
run
run --max-groups 512
run --max-groups 2048
run --tiles-per-group 1
run --tiles-per-group 4
run --fused-tiles 4096
run --fused-tiles 8192
run --runs-bytes 8388608,268435456
run --runs-bytes 1,0
run --wg 128
run --lookback-wg 256
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
run
tar czf $D/r.tgz -C $D r; rm -rf $D/r
