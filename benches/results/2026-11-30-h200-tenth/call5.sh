set -u
R="--repeat 10 --batch 10"
for sh in 16384x6001 67108864; do
  python3 benches/torch_scan.py --shape $sh --op max --dtype f32 $R | tail -n +3 | sed "s/^/torch max f32 /"
  for cfg in "add f32" "max f32" "max i32" "min u32"; do
    set -- $cfg
    for sg in "" "--no-subgroups"; do
      .gpu/scan_prev --shape $sh --op $1 --dtype $2 --algorithm rts $sg $R --csv $OUT/ours.csv | tail -1 | sed "s/^/$1 $2 $sg /"
    done
  done
done
