#!/usr/bin/env bash
# One device run of the speed suite (benches/speed_suite.txt; see ../shared/gpu/README.md):
# the PyTorch peer, then ours through the `speed` example reading the peer's CSV, in the same
# command; and the pool's bytes held after the suite. Expects .gpu/speed (release build).
#   usage (on the device): source .gpu/on-device.sh; bash benches/device_speed.sh
#   SUITE=benches/family_suite.txt for the further reductions (dot, norms, logsumexp, ...).
set -u
source "$(dirname "$0")/device_common.sh"
R=${REPEAT:-30}
SUITE=${SUITE:-benches/speed_suite.txt}
python3 benches/torch_peer.py --suite "$SUITE" --repeat "$R" --csv "$OUT/peer.csv" >"$OUT/peer.log" 2>&1
tail -3 "$OUT/peer.log"
RUST_LOG=${RUST_LOG:-speed=info} .gpu/speed --suite "$SUITE" --peer "$OUT/peer.csv" --csv "$OUT/speed.csv" --repeat "$R" 2>"$OUT/speed.err" | tee "$OUT/speed.log"
tail -5 "$OUT/speed.err"
