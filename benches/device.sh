#!/usr/bin/env bash
# Reproduces every table of BENCHMARKS.md on the lent GPU, with PyTorch measured in the same
# command (see BENCHMARKS.md, "Reproducing"):
#   1. reductions: benches/speed_suite.txt and benches/family_suite.txt, torch_peer.py then the
#      `speed` harness reading its CSV;
#   2. prefix scans: f32 cumsum of whole arrays and rows, the `scan` harness (Auto) then
#      torch_scan.py, shape by shape;
#   3. sorts (when .gpu/sort is there): the `sort` harness, torch_sort.py (PyTorch, CuPy), and
#      lampshade's sort where .gpu/lampshade_bench is carried;
#   4. selecting and counting (when .gpu/select is there): the `select` harness, torch_select.py,
#      and lampshade's u32 compaction where carried.
# Expects release builds of `speed` and `scan` in .gpu/ (cargo build --release -p
# wgpu-reduce-bench --bin speed --bin scan). Writes logs and CSV to $OUT. SECTIONS names the
# sections to run (default all: reduce,scan,sort,select).
#   usage (on the device): source .gpu/on-device.sh; bash benches/device.sh
#          or, the sorts and selections alone: SECTIONS=sort,select bash benches/device.sh
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
R=${REPEAT:-30}
SECTIONS=${SECTIONS:-reduce,scan,sort,select}
# Whether section $1 is to run.
want() { [[ ",$SECTIONS," == *",$1,"* ]]; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
python3 -c 'import torch; print("torch", torch.__version__)' | tee -a "$OUT/gpu.txt"
want reduce && for suite in speed family; do
  python3 benches/torch_peer.py --suite benches/${suite}_suite.txt --repeat "$R" \
    --csv "$OUT/${suite}_torch.csv" >"$OUT/${suite}_torch.log" 2>&1
  timeout 400 .gpu/speed --suite benches/${suite}_suite.txt --peer "$OUT/${suite}_torch.csv" \
    --csv "$OUT/${suite}_ours.csv" --repeat "$R" 2>"$OUT/${suite}.err" | tee "$OUT/${suite}.log"
done
want scan && for shape in 65536 1048576 16777216 268435456 8192x8192 65536x1024; do
  echo "== cumsum f32 $shape" | tee -a "$OUT/scan.log" "$OUT/scan_torch.log"
  timeout 200 .gpu/scan --shape "$shape" --op add --dtype f32 --repeat "$R" --batch 10 \
    --csv "$OUT/scan_ours.csv" | tee -a "$OUT/scan.log"
  python3 benches/torch_scan.py --shape "$shape" --op add --dtype f32 --repeat "$R" --batch 10 \
    --csv "$OUT/scan_torch.csv" | tee -a "$OUT/scan_torch.log"
done
# Sorts: the `sort` harness, then PyTorch and CuPy (CUB) on the same cases; lampshade's u32 sort
# (a peer program linking lampshade 0.13, kept out of this repository, carried as
# .gpu/lampshade_bench) where present.
if want sort && [ -x .gpu/sort ]; then
  timeout 500 .gpu/sort --repeat "${SORT_REPEAT:-10}" --batch 5 --csv "$OUT/sort_ours.csv" \
    2>"$OUT/sort.err" | tee "$OUT/sort.log"
  timeout 500 python3 benches/torch_sort.py --repeat "${SORT_REPEAT:-10}" --batch 5 \
    --csv "$OUT/sort_peer.csv" 2>&1 | tee "$OUT/sort_peer.log"
  if [ -x .gpu/lampshade_bench ]; then
    timeout 300 .gpu/lampshade_bench --cases sort_u32,sort_kv_u32 --repeat "${SORT_REPEAT:-10}" \
      --batch 5 --csv "$OUT/sort_lampshade.csv" 2>&1 | tee "$OUT/sort_lampshade.log"
  fi
fi
# Selecting and counting: the `select` harness, then PyTorch on the same cases, and lampshade's
# u32 compaction where carried.
if want select && [ -x .gpu/select ]; then
  timeout 300 .gpu/select --repeat "${SORT_REPEAT:-10}" --batch 5 --csv "$OUT/select_ours.csv" \
    2>"$OUT/select.err" | tee "$OUT/select.log"
  timeout 200 python3 benches/torch_select.py --repeat "${SORT_REPEAT:-10}" --batch 5 \
    --csv "$OUT/select_peer.csv" 2>&1 | tee "$OUT/select_peer.log"
  if [ -x .gpu/lampshade_bench ]; then
    timeout 120 .gpu/lampshade_bench --cases compact_u32 --sizes 1048576,16777216,67108864 \
      --repeat "${SORT_REPEAT:-10}" --batch 5 2>&1 | tee "$OUT/select_lampshade.log"
  fi
fi
