#!/usr/bin/env bash
# Run D: batches of 10 scans side by side at 2^16-2^20, builds from 3a4c7c0 (the scan table's
# build), e8cfed8~1, e8cfed8 (slots made on demand, 256), this tree, the hybrid kernel; twice.
set -u
source benches/device_common.sh
for round in 1 2; do
  for b in scan_3a4 scan_e8p scan_e8c scan scan_hyb; do
    echo "== $b round $round" >> "$OUT/log.txt"
    timeout 60 ".gpu/$b" --n 65536,262144,1048576,2097152 --repeat 20 --batch 10 --algorithm auto \
      --csv "$OUT/${b}_$round.csv" 2>&1 | tail -n +3 >> "$OUT/log.txt"
  done
done
