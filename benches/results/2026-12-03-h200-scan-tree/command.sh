D=$OUT; OUT=$D/r; source benches/device_common.sh
N=65536,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
S=8192x8192,65536x1024,16384x6001,4096x4097
R="--repeat 20 --batch 10"
run() { name=$1; bin=$2; shift; shift; echo "== $name $bin $*" | tee -a $OUT/log.txt; timeout 120 .gpu/$bin $R "$@" --csv $OUT/$name.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt; }
for r in 1 2 3; do
  run auto_$r scan --n $N --algorithm auto
  run auto_old_$r scan_old --n $N --algorithm auto
  python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch_$r.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
done
for r in 1 2; do
  run rows_$r scan --shape $S --algorithm auto
  python3 benches/torch_scan.py --shape $S --op add --dtype f32 $R --csv $OUT/torch_rows_$r.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
