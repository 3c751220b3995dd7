# Run 4: what one look-back step costs: the tree's look-back (diag 0), without the wait (2), with
# one extra step of the walk before it (4), with one extra step's workgroup work and no loads (8).
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=524288,1048576,2097152,4194304,16777216
for round in 1 2; do for d in 0 2 4 8; do
  timeout 100 .gpu/scan_steps --n $N $R --algorithm lookback --diag $d --csv $OUT/steps_${d}_$round.csv 2>&1 | tail -n +3 | sed "s/^/d$d r$round /" | tee -a $OUT/log.txt
done; done
tar czf $D/r.tgz -C $D r; rm -rf $D/r
