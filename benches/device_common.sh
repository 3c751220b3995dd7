# Sourced by the device scripts that measure (device_speed.sh, device_scans.sh,
# device_reductions.sh, ...): unpacks carried builds, makes $OUT, writes the GPU line to
# $OUT/gpu.txt, and samples the SM clock every 200 ms into $OUT/clocks.csv until the script
# exits (the driver lowers the clock when the GPU idles; each measured case warms up first, see
# examples/support/mod.rs).
# Builds carried packed (.gpu/bins.tar.gz: the carry has a size limit) are unpacked first.
if [ -f .gpu/bins.tar.gz ] && [ ! -e .gpu/.unpacked ]; then
  tar xzf .gpu/bins.tar.gz -C .gpu && touch .gpu/.unpacked
fi
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$OUT/gpu.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu --format=csv -lms 200 >"$OUT/clocks.csv" &
CLOCKS=$!
trap 'kill $CLOCKS 2>/dev/null' EXIT
