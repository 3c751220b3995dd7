D=$OUT; OUT=$D/r; source benches/device_common.sh
N=4194304,8388608,16777216,33554432,67108864
R="--repeat 20 --batch 10"
run() { name=$1; b=$2; shift 2; echo "== $name $b $*" | tee -a $OUT/log.txt; timeout 60 .gpu/$b --n $N $R "$@" --csv $OUT/$name.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt; }
for r in 1 2; do
run auto_$r scan --algorithm auto
run two4096_$r scan --algorithm auto --fused-tiles 4096
run P8192_$r scanP --algorithm auto --fused-tiles 8192
run P16384_$r scanP --algorithm auto --fused-tiles 16384
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch_$r.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
