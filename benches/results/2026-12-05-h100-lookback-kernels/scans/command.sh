# One device command: the three look-back kernels' scans with torch (device_scans_ab.sh), their
# first calls, then the scan tests of the `hyb` build on the GPU (release test binary).
source .gpu/on-device.sh; export OUT; R=$OUT/r; mkdir -p $R
(OUT=$R BUILDS="scan_hyb:first_call_hyb:hyb scan:first_call:new scan_rev:first_call_rev:rev" \
  DEEP=0 STEPS="scans first" bash benches/device_scans_ab.sh) > $R/run.log 2>&1
timeout 150 .gpu/test_scan_hyb 2>&1 | tail -4 > $R/tests_hyb.txt
