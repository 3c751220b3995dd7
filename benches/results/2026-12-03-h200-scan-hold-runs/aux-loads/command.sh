D=$OUT; OUT=$D/r; source benches/device_common.sh
N=2097152,4194304,8388608,16777216,33554432,67108864
R="--repeat 20 --batch 10"
run() { name=$1; b=$2; shift 2; echo "== $name $b $*" | tee -a $OUT/log.txt; timeout 60 .gpu/$b --n $N $R "$@" --csv $OUT/$name.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt; }
for r in 1 2; do
run auto_$r scan --algorithm auto
run W_$r scanW --algorithm auto
run W4096_$r scanW --algorithm auto --fused-tiles 4096
run PW8192_$r scanPW --algorithm auto --fused-tiles 8192
run PW16384_$r scanPW --algorithm auto --fused-tiles 16384
python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch_$r.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
done
run rowsT scan --shape 64x100000,256x16384,1024x10000 --algorithm rts
run rowsW scanW --shape 64x100000,256x16384,1024x10000 --algorithm rts
tar czf $D/r.tgz -C $D r; rm -rf $D/r
