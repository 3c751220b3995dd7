set -u
source benches/device_common.sh
timeout 120 .gpu/scan_test > $OUT/tests.log 2>&1; echo "test exit $?"; grep "test result" $OUT/tests.log
R="--op add --dtype f32 --repeat 15 --batch 10"
W=65536,262144,524288,1048576,2097152,4194304
ROWS=16x65536,64x16384,256x16384,1024x16384,4x262144
for a in lookback rts; do
  echo "== new $a"; .gpu/scan --shape $W $R --algorithm $a --csv $OUT/new.csv | tail -n +4
  .gpu/scan --shape $ROWS $R --algorithm $a --csv $OUT/new.csv | tail -n +4
done
echo "== prev rts"; .gpu/scan_prev --shape $W $R --algorithm rts --csv $OUT/prev.csv | tail -n +4
echo "== new/prev rts large"; .gpu/scan --shape 16777216,268435456 $R --algorithm rts --csv $OUT/new.csv | tail -n +4
.gpu/scan_prev --shape 16777216,268435456 $R --algorithm rts --csv $OUT/prev.csv | tail -n +4
echo "== torch"; python3 benches/torch_scan.py --shape $W,$ROWS,16777216,268435456 --op add --dtype f32 --repeat 15 --batch 10 --csv $OUT/peer.csv | tail -n +3
for f in new prev; do echo "-- $f"; cut -d, -f10,11,8 $OUT/$f.csv; done; echo "-- torch"; cut -d, -f10,7 $OUT/peer.csv
