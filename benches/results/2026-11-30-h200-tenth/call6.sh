set -u
timeout 120 .gpu/scan_test > $OUT/tests.log 2>&1; grep "test result" $OUT/tests.log
R="--repeat 10 --batch 10"
python3 benches/torch_scan.py --shape 16384x6001 --op max --dtype f32 $R --csv $OUT/peer.csv | tail -1 | sed "s/^/torch max f32 /"
python3 benches/torch_scan.py --shape 8192x8192 --op min --dtype f32 $R --csv $OUT/peer.csv | tail -1 | sed "s/^/torch min f32 /"
for cfg in "max f32 16384x6001" "min f32 8192x8192" "max f32 67108864" "min f16 16384x6001" "max i32 16384x6001" "add f32 16384x6001"; do
  set -- $cfg
  for b in scan_prev scan; do
    .gpu/$b --shape $3 --op $1 --dtype $2 --algorithm rts $R --csv $OUT/$b.csv | tail -1 | sed "s/^/$b $1 $2 /"
  done
done
.gpu/scan --shape 67108864 --op max --dtype f32 --algorithm lookback $R --csv $OUT/scan.csv | tail -1 | sed "s/^/scan lb max f32 /"
