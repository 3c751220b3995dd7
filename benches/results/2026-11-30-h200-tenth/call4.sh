set -u
timeout 150 .gpu/scan_test > $OUT/tests.log 2>&1; grep "test result" $OUT/tests.log
S=4194304,16777216,67108864,268435456
R="--repeat 15 --batch 10"
for i in 1 2; do
  python3 benches/torch_scan.py --shape $S --op add --dtype f32 $R --csv $OUT/peer.csv | tail -n +3 | sed "s/^/torch /"
  .gpu/scan_prev --shape $S --algorithm rts $R --csv $OUT/prev.csv | tail -n +3 | sed "s/^/prev /"
  .gpu/scan --shape $S --algorithm rts $R --csv $OUT/ours.csv | tail -n +3 | sed "s/^/new /"
done
.gpu/scan_prev --shape 268435456 --algorithm lookback $R --csv $OUT/prev.csv | tail -1 | sed "s/^/prev lb /"
.gpu/scan --shape 16384x6001,3x33333333,64x4194304 --algorithm rts $R --csv $OUT/ours.csv | tail -n +3 | sed "s/^/new /"
.gpu/scan_prev --shape 16384x6001,3x33333333,64x4194304 --algorithm rts $R --csv $OUT/prev.csv | tail -n +3 | sed "s/^/prev /"
