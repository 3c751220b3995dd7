set -u
source benches/device_common.sh
R="--op add --dtype f32 --algorithm rts --repeat 15 --batch 10"
for k in 1 2; do
  echo "== new 16384x6001 ($k)"; .gpu/scan --shape 16384x6001,65536x1023 $R --csv $OUT/new.csv | tail -n +4
  echo "== prev 16384x6001 ($k)"; .gpu/scan_prev --shape 16384x6001,65536x1023 $R --csv $OUT/prev.csv | tail -n +4
done
echo "== new default"; .gpu/scan --shape 4194304,16777216,33554432 $R --csv $OUT/new.csv | tail -n +3
echo "== prev"; .gpu/scan_prev --shape 4194304,16777216,33554432 $R --csv $OUT/prev.csv | tail -n +3
