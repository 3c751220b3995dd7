set -u
export REPEAT=15 TEST_TIMEOUT=120 ALGS="lookback rts"
export CONFIGS_OVERRIDE="add f32 1048576,4194304,16777216,33554432,67108864,268435456;add u32 268435456;add f32 8192x8192;add f32 16384x6001;add f32 65536x1023;add f16 67108864;max f32 16384x6001"
bash benches/device_scans.sh > $OUT/run.log 2>&1
tail -45 $OUT/run.log
