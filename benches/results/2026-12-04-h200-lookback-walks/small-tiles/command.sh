# Run 10: small look-back scans at tiles of 4096 (default), 2048 and 1024, in turn, twice;
# torch in the same command.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 30 --batch 10"
N=16384,32768,65536,98304,131072,196608,262144
timeout 120 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
for round in 1 2; do
  for c in "t4096:" "t2048:--wg 128 --lookback-wg 128" "t1024:--wg 64 --lookback-wg 64"; do
    name=${c%%:*}; a=${c#*:}
    timeout 60 .gpu/scan --n $N $R --algorithm lookback $a --csv $OUT/${name}_$round.csv 2>&1 | tail -n +3 | sed "s/^/$name r$round /" | tee -a $OUT/log.txt
  done
done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
