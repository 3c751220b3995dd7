# Run 9: the look-back by fewer workgroups than tiles, each loading its next tile before its
# walk (scan_pf --diag 4, workgroups from --max-groups), against the look-back as it is (scan,
# and scan_pf without the flag) and reduce-then-scan; torch before and after.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=65536,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,268435456
timeout 120 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
timeout 100 .gpu/scan --n $N $R --algorithm lookback --csv $OUT/base.csv 2>&1 | tail -n +3 | sed "s/^/base /" | tee -a $OUT/log.txt
timeout 100 .gpu/scan_pf --n $N $R --algorithm lookback --csv $OUT/pf_off.csv 2>&1 | tail -n +3 | sed "s/^/pf_off /" | tee -a $OUT/log.txt
for g in 132 264 528 1056; do
  timeout 100 .gpu/scan_pf --n $N $R --algorithm lookback --diag 4 --max-groups $g --csv $OUT/pf_$g.csv 2>&1 | tail -n +3 | sed "s/^/pf$g /" | tee -a $OUT/log.txt
done
timeout 100 .gpu/scan --n $N $R --algorithm rts --csv $OUT/rts.csv 2>&1 | tail -n +3 | sed "s/^/rts /" | tee -a $OUT/log.txt
timeout 100 .gpu/scan_pf --n 4194304,33554432 --repeat 3 --batch 2 --algorithm lookback --diag 5 --max-groups 264 2>&1 | grep "look-back over" | sed "s/^/diag /" | tee -a $OUT/log.txt
timeout 120 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch2.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
tar czf $D/r.tgz -C $D r; rm -rf $D/r
