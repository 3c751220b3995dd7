#!/usr/bin/env bash
# One device run: dispatches encoded level by level (ContextOptions::level_dispatches, the
# harnesses' --level) against the order recorded, in turn, two rounds, with torch in the same
# command. Scans (f32 cumsum, batches of 10): reduce-then-scan forced and Auto, side by side
# and one after another; reductions: the speed suite (two-pass reductions along axes among
# them). Expects .gpu/scan and .gpu/speed (release builds of this tree). Writes to $OUT.
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_levels.sh
set -u
source "$(dirname "$0")/device_common.sh"
N=${N:-65536,1048576,4194304,8388608,16777216,33554432,268435456}
R="--repeat ${REPEAT:-20} --batch 10"
python3 benches/torch_scan.py --shape "$N" --op add --dtype f32 $R --csv "$OUT/torch_scan.csv" \
  >"$OUT/torch_scan.log" 2>&1
python3 benches/torch_peer.py --suite benches/speed_suite.txt --repeat 30 --csv "$OUT/peer.csv" \
  >"$OUT/peer.log" 2>&1
for round in 1 2; do
  for lv in off on; do
    flag=""; [ $lv = on ] && flag=--level
    for alg in rts auto; do
      for mode in side serial; do
        s=""; [ $mode = serial ] && s=--serial
        echo "== round $round level $lv $alg $mode" >>"$OUT/scan.log"
        timeout 120 .gpu/scan --n "$N" --algorithm $alg $R $s $flag \
          --csv "$OUT/scan_${alg}_${mode}_${lv}_$round.csv" 2>&1 | tail -n +2 >>"$OUT/scan.log"
      done
    done
    echo "== round $round level $lv" >>"$OUT/speed.log"
    timeout 200 .gpu/speed --suite benches/speed_suite.txt --peer "$OUT/peer.csv" --repeat 30 $flag \
      --csv "$OUT/speed_${lv}_$round.csv" >>"$OUT/speed.log" 2>>"$OUT/speed.err"
  done
done
