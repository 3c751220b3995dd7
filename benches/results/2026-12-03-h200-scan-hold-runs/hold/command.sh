D=$OUT; OUT=$D/r; source benches/device_common.sh
N=1048576,2097152,4194304,8388608,16777216,67108864,268435456
R="--repeat 20 --batch 10"
run() { name=$1; b=$2; shift 2; echo "== $name $b $*" | tee -a $OUT/log.txt; timeout 60 .gpu/$b --n $N $R "$@" --csv $OUT/$name.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt; }
run auto scan --algorithm auto
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for b in scan scanR scanS; do for w in 256 512; do run ${b}_$w $b --algorithm lookback --lookback-wg $w; done; done
run nowait_256 scan --algorithm lookback --lookback-wg 256 --diag 2
run nowaitS_256 scanS --algorithm lookback --lookback-wg 256 --diag 2
run auto2 scan --algorithm auto
tar czf $D/r.tgz -C $D r; rm -rf $D/r
