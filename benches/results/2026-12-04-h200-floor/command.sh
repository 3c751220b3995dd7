# The scan table with this tree's Auto rule (two rounds, ours and torch in turn, torch also
# replayed from a CUDA graph), and the floor under a one-pass operation on each side: K tiny
# dispatches in one submission (dispatch_floor) against K tiny kernels in one CUDA graph.
D=$OUT; OUT=$D/r; source benches/device_common.sh
R="--repeat 20 --batch 10"
N=65536,131072,196608,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456
ROWS=8192x8192,16384x6001,65536x1024,4096x4097
for round in 1 2; do
  echo "== round $round: torch" | tee -a $OUT/log.txt
  timeout 150 python3 benches/torch_scan.py --shape $N --op add --dtype f32 $R --csv $OUT/torch_$round.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
  timeout 100 python3 benches/torch_scan.py --shape $ROWS --op add --dtype f32 $R --csv $OUT/torch_rows_$round.csv 2>&1 | tail -n +2 | tee -a $OUT/log.txt
  echo "== round $round: ours" | tee -a $OUT/log.txt
  timeout 100 .gpu/scan --n $N $R --algorithm auto --csv $OUT/ours_$round.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
  timeout 100 .gpu/scan --shape $ROWS $R --algorithm auto --csv $OUT/ours_rows_$round.csv 2>&1 | tail -n +3 | tee -a $OUT/log.txt
done
echo "== floor: ours" | tee -a $OUT/log.txt
timeout 100 .gpu/dispatch_floor --k 1,10,100 --groups 1,32,256 --repeat 50 2>&1 | tee $OUT/floor_ours.csv | tee -a $OUT/log.txt
echo "== floor: torch" | tee -a $OUT/log.txt
timeout 100 python3 benches/torch_floor.py --k 1,10,100 --groups 1,32,256 --repeat 50 2>&1 | tee $OUT/floor_torch.csv | tee -a $OUT/log.txt
tar czf $D/r.tgz -C $D r; rm -rf $D/r
# Then, in a second command: the kernels of one torch.cumsum at four sizes.
#   python3 benches/torch_scan.py --kernels --shape 65536,2097152,4194304,16777216 > kernels.txt
