D=$OUT; OUT=$D/r; source benches/device_common.sh
N=262144,1048576,2097152,4194304,8388608,16777216,67108864
R="--repeat 20 --batch 10"
run() { name=$1; b=$2; shift 2; echo "== $name $b $*" | tee -a $OUT/log.txt; timeout 60 .gpu/$b --n $N $R "$@" --csv $OUT/$name.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt; }
run auto_1 scan --algorithm auto
run autoE_1 scanE --algorithm auto
run lb512 scan --algorithm lookback --lookback-wg 512
run lbE512 scanE --algorithm lookback --lookback-wg 512
run lbE256 scanE --algorithm lookback --lookback-wg 256
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
run autoE_2 scanE --algorithm auto
run auto_2 scan --algorithm auto
for n in 4194304 16777216; do timeout 60 .gpu/scan --n $n --algorithm lookback --repeat 3 --batch 1 --diag 1 2>&1 | grep look-back | tee -a $OUT/log.txt; timeout 60 .gpu/scanE --n $n --algorithm lookback --repeat 3 --batch 1 --diag 1 2>&1 | grep look-back | tee -a $OUT/log.txt; done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
