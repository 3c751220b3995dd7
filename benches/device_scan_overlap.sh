#!/usr/bin/env bash
# Diagnoses how look-back scans side by side overlap and what their waits cost:
# the look-back's counts per tile (--diag 1: reads of predecessors, fallbacks), the scan
# without waiting for predecessors (--diag 2), workgroups running at once (--diag 4), spin
# limits, reduce-then-scan, side by side and one after another; the dispatch floor; torch in
# the same command. Every file goes to $OUT.
# Expects .gpu/scan and .gpu/dispatch_floor (release builds).
# usage (on the device): source .gpu/on-device.sh; bash benches/device_scan_overlap.sh
set -u
R=${OUT:-/tmp/out}; mkdir -p "$R"; S=.gpu/scan; N=${N:-65536,262144,1048576}
(which nsys ncu; ls /usr/local/cuda/bin 2>/dev/null | grep -E 'nsys|ncu') > $R/tools.txt 2>&1
nvidia-smi -q | grep -iE 'mig mode|compute mode|persistence|virtualization|product name' -A1 \
  > $R/gpu_q.txt 2>&1
for a in lookback rts; do
  $S --n $N --algorithm $a --repeat 30 --csv $R/${a}_side.csv > $R/${a}_side.txt 2>&1
  $S --n $N --algorithm $a --repeat 30 --serial --csv $R/${a}_serial.csv > $R/${a}_serial.txt 2>&1
done
for d in 1 2 4; do
  $S --n $N --algorithm lookback --repeat 30 --diag $d --csv $R/diag$d.csv > $R/diag$d.txt 2>&1
done
for s in 1 64 1024; do
  $S --n $N --algorithm lookback --repeat 30 --spin-limit $s --csv $R/spin$s.csv \
    > $R/spin$s.txt 2>&1
done
.gpu/dispatch_floor --k 1,10 --groups 1,8,32,256 > $R/floor.txt 2>&1
python3 benches/torch_scan.py --shape $N --csv $R/torch.csv > $R/torch.txt 2>&1
