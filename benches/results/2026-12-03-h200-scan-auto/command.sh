set -u
D=$OUT; OUT=$D/r; source benches/device_common.sh
timeout 200 .gpu/scan_test > $OUT/scan_test.log 2>&1; echo "scan_test exit $?" | tee -a $OUT/log.txt
grep -E "test result|panicked" $OUT/scan_test.log | head
R="--repeat 30 --batch 10"
N=65536,262144,524288,786432,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
SH=256x16384,64x32768,1024x10000,8192x8192
for round in 1 2; do
  for wg in 512 256; do
    .gpu/scan --n $N --algorithm auto --lookback-wg $wg $R --csv $OUT/auto_${wg}_$round.csv > $OUT/auto_${wg}_$round.log 2>&1
    echo "auto $wg r$round: $(cut -d, -f8,11 $OUT/auto_${wg}_$round.csv | tr '\n' ' ') $(grep -c yes $OUT/auto_${wg}_$round.log) ok" | tee -a $OUT/log.txt
  done
  .gpu/scan --shape $SH --algorithm auto $R --csv $OUT/rows_$round.csv > $OUT/rows_$round.log 2>&1
  echo "rows r$round: $(cut -d, -f8,11 $OUT/rows_$round.csv | tr '\n' ' ')" | tee -a $OUT/log.txt
  python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch_$round.csv > /dev/null 2>&1
  python3 benches/torch_scan.py --shape $SH --op add --dtype f32 $R --csv $OUT/torch_rows_$round.csv > /dev/null 2>&1
  echo "torch r$round: $(cut -d, -f7 $OUT/torch_$round.csv | tr '\n' ' ')" | tee -a $OUT/log.txt
  echo "torch rows r$round: $(cut -d, -f7 $OUT/torch_rows_$round.csv | tr '\n' ' ')" | tee -a $OUT/log.txt
done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
