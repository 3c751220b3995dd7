set -u
source benches/device_common.sh
timeout 120 .gpu/scan_test > $OUT/tests.log 2>&1; echo "test exit $?"; grep "test result" $OUT/tests.log
R="--op add --dtype f32 --algorithm rts --repeat 15 --batch 10"
S=1048576,4194304,16777216,33554432,67108864,268435456
for k in 1 2; do
  echo "== new ($k)"; .gpu/scan --shape $S $R --csv $OUT/new.csv | tail -n +3
  echo "== prev ($k)"; .gpu/scan_prev --shape $S $R --csv $OUT/prev.csv | tail -n +3
done
echo "== new rows"; .gpu/scan --shape 64x4194304,4096x16384,16384x6001 $R --csv $OUT/new.csv | tail -n +3
echo "== prev rows"; .gpu/scan_prev --shape 64x4194304,4096x16384,16384x6001 $R --csv $OUT/prev.csv | tail -n +3
echo "== torch"; python3 benches/torch_scan.py --shape $S,64x4194304,4096x16384 --op add --dtype f32 --repeat 15 --batch 10 --csv $OUT/peer.csv | tail -n +3
for f in new prev; do echo "-- $f"; cut -d, -f4,10,8 $OUT/$f.csv; done; echo "-- torch"; cut -d, -f4,10,7 $OUT/peer.csv
