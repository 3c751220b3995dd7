D=$OUT; OUT=$D/r; source benches/device_common.sh
N=65536,262144,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
S=8192x8192,65536x1024,16384x6001
R="--repeat 20 --batch 10"
run() { name=$1; bin=$2; shift; shift; echo "== $name $bin $*" | tee -a $OUT/log.txt; timeout 60 .gpu/$bin $R "$@" --csv $OUT/$name.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt; }
run k4_auto scan4 --n $N --algorithm auto
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
run k4b_auto scan4b --n $N --algorithm auto
run k8_auto scan8 --n $N --algorithm auto
run k8_rts scan8 --n $N --algorithm rts
run k8_rts_wg128 scan8 --n $N --algorithm rts --wg 128
run k8_lb512 scan8 --n $N --algorithm lookback
run k8_lb256 scan8 --n $N --algorithm lookback --lookback-wg 256
run k4_auto_b scan4 --n $N --algorithm auto
run k8_rts_b scan8 --n $N --algorithm rts
run k8_rts_wg128_b scan8 --n $N --algorithm rts --wg 128
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch_b.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
run k4_rows scan4 --shape $S --algorithm auto
run k8_rows scan8 --shape $S --algorithm auto
run k8_rows_wg128 scan8 --shape $S --algorithm auto --wg 128 --row-wg 256
python3 benches/torch_scan.py --shape $S --op add --dtype f32 $R --csv $OUT/torch_rows.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
mkdir -p $OUT/family; OUT=$OUT/family SUITE=benches/family_suite.txt REPEAT=30 bash benches/device_speed.sh 2>&1 | tail -14
tar czf $D/r.tgz -C $D r; rm -rf $D/r
