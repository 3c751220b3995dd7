#!/usr/bin/env bash
# The command that made the files beside it. .gpu/scan: bench/'s scan harness of this tree,
# whose Auto takes reduce-then-scan for one row of more than 4 tiles scanned into an output an
# earlier operation used from an input none wrote; .gpu/scan_old: the build before (that rule
# only where the look-back takes its larger workgroup, above 2^19). Release builds.
source .gpu/on-device.sh; B=/tmp/res; rm -rf $B; mkdir -p $B
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $B/gpu.txt
N=16384,65536,131072,262144,524288,1048576
python3 benches/torch_scan.py --shape $N --op add --dtype f32 --repeat 20 --batch 10 --csv $B/torch.csv > $B/torch.txt 2>&1
for round in 1 2; do
  for b in scan scan_old; do
    echo "== $b auto serial round $round" >> $B/log.txt
    timeout 60 .gpu/$b --n $N --algorithm auto --repeat 20 --batch 10 --serial --csv $B/${b}_serial_$round.csv 2>&1 | tail -n +2 >> $B/log.txt
  done
  for a in lookback rts; do
    echo "== scan $a serial round $round" >> $B/log.txt
    timeout 60 .gpu/scan --n $N --algorithm $a --repeat 20 --batch 10 --serial --csv $B/${a}_serial_$round.csv 2>&1 | tail -n +2 >> $B/log.txt
  done
  echo "== scan auto side round $round" >> $B/log.txt
  timeout 60 .gpu/scan --n $N --algorithm auto --repeat 20 --batch 10 --csv $B/scan_side_$round.csv 2>&1 | tail -n +2 >> $B/log.txt
done
tar czf $OUT/all.tar.gz -C $B .
