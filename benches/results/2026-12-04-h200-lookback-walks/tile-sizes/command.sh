# Run 8: the look-back at tiles of 8192 (default above 128 tiles), 4096, 2048 and 1024, with
# and without its wait (--diag 2), against torch; 2^16-2^23.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=65536,262144,524288,1048576,2097152,4194304,8388608
timeout 120 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for c in "t8192:" "t4096:--lookback-wg 256" "t2048:--wg 128 --lookback-wg 128" "t1024:--wg 64 --lookback-wg 64"; do
  name=${c%%:*}; a=${c#*:}
  for d in 0 2; do
    timeout 100 .gpu/scan --n $N $R --algorithm lookback $a --diag $d --csv $OUT/${name}_d$d.csv 2>&1 | tail -n +3 | sed "s/^/$name d$d /" | tee -a $OUT/log.txt
  done
done
timeout 100 .gpu/scan --n $N $R --algorithm rts --csv $OUT/rts.csv 2>&1 | tail -n +3 | sed "s/^/rts /" | tee -a $OUT/log.txt
tar czf $D/r.tgz -C $D r; rm -rf $D/r
