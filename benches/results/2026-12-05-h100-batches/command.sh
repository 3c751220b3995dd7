# One device command: the batch suite (torch first), speed of `new` (256 clean-state buffers and
# stand-ins), `16` (16 of each) and `flat` (--flat-last-group: the flat first pass finishing in
# one pass), two rounds; then the blocking sum of 2^20 beside wgpu's floor, `new` and `flat`
# (a latency harness whose flag set ContextOptions::reduce_last_group_flat; the sum does not
# take the flat pass, so both ran the same kernels), two rounds.
source .gpu/on-device.sh; export OUT; R=$OUT/b; mkdir -p $R
(OUT=$R SPEED="speed:new speed_16:16 speed:flat:--flat-last-group" \
  LATENCY="latency:new latency:flat:--flat-last-group" ROUNDS=2 LAT_ROUNDS=2 \
  bash benches/device_batches.sh) > $R/run.log 2>&1
