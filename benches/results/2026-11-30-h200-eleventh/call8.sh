set -u
source benches/device_common.sh
timeout 120 .gpu/scan_test > $OUT/tests.log 2>&1; echo "test exit $?"; grep "test result" $OUT/tests.log
R="--op add --dtype f32 --algorithm rts --repeat 15 --batch 10"
for k in 1 2; do
  echo "== new 16384x6001 ($k)"; .gpu/scan --shape 16384x6001 $R --csv $OUT/new.csv | tail -n +4
  echo "== prev 16384x6001 ($k)"; .gpu/scan_prev --shape 16384x6001 $R --csv $OUT/prev.csv | tail -n +4
done
echo "== new default"; .gpu/scan --shape 4194304,16777216,67108864,268435456 $R --csv $OUT/new.csv | tail -n +3
echo "== new --runs-bytes 1,0"; .gpu/scan --shape 4194304,16777216,67108864 --runs-bytes 1,0 $R --csv $OUT/fwd.csv | tail -n +3
echo "== prev"; .gpu/scan_prev --shape 4194304,16777216,67108864 $R --csv $OUT/prev.csv | tail -n +3
echo "== torch"; python3 benches/torch_scan.py --shape 4194304,16777216,67108864,268435456,16384x6001 --op add --dtype f32 --repeat 15 --batch 10 --csv $OUT/peer.csv | tail -n +3
