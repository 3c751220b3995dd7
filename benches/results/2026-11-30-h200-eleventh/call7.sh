set -u
export REPEAT=15 TEST_TIMEOUT=120 ALGS=rts
export CONFIGS_OVERRIDE="add f32 4194304,16777216,67108864,268435456 --runs-max-bytes 0;add f32 4194304,16777216,67108864,268435456;add u32 268435456;add f32 16384x6001"
bash benches/device_scans.sh
echo "== prev (HEAD 17f5abf) rts" | tee -a $OUT/ours.log
for s in 4194304,16777216,67108864,268435456 16384x6001; do
  .gpu/scan_prev --shape $s --op add --dtype f32 --algorithm rts --repeat 15 --batch 10 --csv $OUT/prev.csv | tail -n +3 | tee -a $OUT/ours.log
done
