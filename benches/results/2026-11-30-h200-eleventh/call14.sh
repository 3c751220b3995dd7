set -u
source benches/device_common.sh
R="--op add --dtype f32 --algorithm rts --repeat 15 --batch 10"
for k in 1 2; do
  .gpu/scan --shape 1048576,4194304,268435456 $R --csv $OUT/new.csv | tail -n +4
  .gpu/scan_prev --shape 1048576,4194304,268435456 $R --csv $OUT/prev.csv | tail -n +4
done
for f in new prev; do echo "-- $f"; cut -d, -f10,8 $OUT/$f.csv; done
