#!/usr/bin/env bash
# One device run of the cubecl-reduce peer's cases (benches/peer_suite.txt): torch, ours and
# cubecl-reduce 0.8.1 on its wgpu runtime (../shared/peers/cubecl_bench, carried as
# .gpu/cubecl_bench) in the same command.
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_reduce_peers.sh
set -u
source "$(dirname "$0")/device_common.sh"
R=${REPEAT:-30}
python3 benches/torch_peer.py --suite benches/peer_suite.txt --repeat "$R" --csv "$OUT/peer.csv" >"$OUT/peer.log" 2>&1
tail -3 "$OUT/peer.log"
RUST_LOG=${RUST_LOG:-speed=info} .gpu/speed --suite benches/peer_suite.txt --peer "$OUT/peer.csv" --csv "$OUT/speed.csv" --repeat "$R" 2>"$OUT/speed.err" | tee "$OUT/speed.log"
timeout 400 .gpu/cubecl_bench --repeat "$R" --k 10 2>&1 | tee "$OUT/cubecl.log"
