set -u
R="--repeat 10 --batch 10"
S=268435456
o() { echo "== $*"; "$@" 2>&1 | tail -n +2 | grep -v "^ *shape"; }
o python3 benches/torch_scan.py --shape $S --op add --dtype f32 $R
o .gpu/scan --shape $S --algorithm lookback $R
o .gpu/scan --shape $S --algorithm rts $R
o .gpu/scan_defer --shape $S --algorithm lookback --diag 2 $R
for s in 0 1 2 4 16; do o .gpu/scan_defer --shape $S --algorithm lookback --diag 4 --spin-limit $s $R; done
for s in 0 2 16; do o .gpu/scan_defer --shape $S --algorithm lookback --diag 5 --spin-limit $s --repeat 2 --batch 2; done
for s in 0 2; do o env EXP_DEFER_ONLY=1 .gpu/scan_defer --shape $S --algorithm lookback --diag 4 --spin-limit $s $R; done
o env EXP_DEFER_ONLY=1 .gpu/scan_defer --shape $S --algorithm lookback --diag 5 --spin-limit 0 --repeat 2 --batch 2
o python3 benches/torch_scan.py --shape $S --op add --dtype f32 $R
for sh in 16384x6001 3x33333333; do
  o python3 benches/torch_scan.py --shape $sh --op add --dtype f32 $R
  for b in scan scan_unal; do for a in lookback rts; do o .gpu/$b --shape $sh --algorithm $a $R; done; done
done
