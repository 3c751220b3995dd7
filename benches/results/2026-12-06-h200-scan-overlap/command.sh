#!/usr/bin/env bash
# The command that made peers/, overlap/ and first/ (release builds of bench/'s scan,
# dispatch_floor and first_call of this tree in .gpu/).
source .gpu/on-device.sh; B=/tmp/res; rm -rf $B; mkdir -p $B/peers $B/overlap $B/first
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $B/gpu.txt
python3 -c "import torch;print(torch.__version__)" >> $B/gpu.txt
OUT=$B/peers timeout 240 bash benches/device_scan_peers.sh > $B/peers/run.txt 2>&1
OUT=$B/overlap timeout 200 bash benches/device_scan_overlap.sh > $B/overlap/run.txt 2>&1
timeout 120 .gpu/first_call --runs 3 --csv $B/first/first_call.csv > $B/first/run.txt 2>&1
rm -f $B/*/clocks.csv; tar czf $OUT/all.tar.gz -C $B .
