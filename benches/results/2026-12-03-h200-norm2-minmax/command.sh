D=$OUT; OUT=$D/r; source benches/device_common.sh
N=1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
R="--repeat 20 --batch 10"
run() { name=$1; bin=$2; shift; shift; echo "== $name $bin $*" | tee -a $OUT/log.txt; timeout 60 .gpu/$bin --n $N $R "$@" --csv $OUT/$name.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt; }
diag() { name=$1; bin=$2; shift; shift; echo "== diag $name $bin $*" | tee -a $OUT/log.txt; timeout 60 .gpu/$bin --n 2097152,4194304,16777216,67108864 --repeat 3 --batch 1 --algorithm lookback --diag 1 "$@" 2>&1 | tail -n +1 | tee -a $OUT/log.txt; }
run k4_auto scan4 --algorithm auto
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
run k4_lb512 scan4 --algorithm lookback
run k4_lb256 scan4 --algorithm lookback --lookback-wg 256
run k2_lb512 scan2 --algorithm lookback
run k2_lb256 scan2 --algorithm lookback --lookback-wg 256
run k2_rts scan2 --algorithm rts
run k2_auto scan2 --algorithm auto
run k4_auto_b scan4 --algorithm auto
run k2_lb256_b scan2 --algorithm lookback --lookback-wg 256
run k2_lb512_b scan2 --algorithm lookback
diag k4_lb256 scan4 --lookback-wg 256
diag k4_lb512 scan4
diag k2_lb256 scan2 --lookback-wg 256
diag k2_lb512 scan2
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch_b.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
printf 'norm2 f32 67108864 all 10\nnorm1 f32 67108864 all 10\nsum f32 67108864 all 10\nnorm2 f32 16777216 all 10\n' > $D/norm_suite.txt
python3 benches/torch_peer.py --suite $D/norm_suite.txt --repeat 30 --csv $OUT/norm_peer.csv > $OUT/norm_peer.log 2>&1
for b in a b a b; do echo "== speed_$b" | tee -a $OUT/log.txt; .gpu/speed_$b --suite $D/norm_suite.txt --peer $OUT/norm_peer.csv --csv $OUT/norm_$b.csv --repeat 30 2>/dev/null | tee -a $OUT/log.txt; done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
