#!/usr/bin/env bash
# Run C: the single sum of 2^20 after a batch of 300 (slots 256 against 16), the flat one-pass
# finish across the flat families (off, on, in turn, twice, torch first), and a second round of
# the look-back kernels (hyb, new, rev).
set -u
source benches/device_common.sh
R=$OUT
timeout 100 python3 benches/torch_peer.py --suite .gpu/flat_suite.txt --csv "$R/peer_flat.csv" 2>&1 | tail -n +2 > "$R/torch_flat.txt"
for round in 1 2; do
  for b in "speed:new:" "speed_16:16:"; do
    IFS=: read bin tag flags <<<"$b"
    echo "== order $tag round $round" >> "$R/log.txt"
    timeout 60 ".gpu/$bin" --suite .gpu/order_suite.txt --csv "$R/order_${tag}_$round.csv" >> "$R/log.txt" 2>&1
  done
  for b in "speed:off:" "speed:on:--flat-last-group"; do
    IFS=: read bin tag flags <<<"$b"
    echo "== flat $tag round $round" >> "$R/log.txt"
    timeout 80 ".gpu/$bin" --suite .gpu/flat_suite.txt --peer "$R/peer_flat.csv" $flags --csv "$R/flat_${tag}_$round.csv" >> "$R/log.txt" 2>&1
  done
done
OUT=$R/scans N=65536,262144,1048576,2097152,4194304,16777216 DEEP=0 STEPS="scans" \
  BUILDS="scan_rev:first_call_rev:rev scan:first_call:new scan_hyb:first_call_hyb:hyb" \
  bash benches/device_scans_ab.sh > "$R/scans.log" 2>&1
