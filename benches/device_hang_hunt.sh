#!/usr/bin/env bash
# Hunts the intermittent crashes and hangs of test binaries on the device: runs the named test
# binaries (default: the ones seen to fail) several times, in parallel test threads and in one
# thread; a run still going after HANG_S seconds gets every thread's stack printed (gdb, if
# present) and is killed; a crash gets a core-less backtrace by rerunning under gdb. Everything
# goes to one log, $OUT/hunt.log.
# Expects .gpu/tests.tar.xz.  usage (on the device): source .gpu/on-device.sh; bash benches/device_hang_hunt.sh
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/wr
LOG="$OUT/hunt.log"
python3 -c "import tarfile; tarfile.open('.gpu/tests.tar.xz').extractall('/tmp/wr')"
# Unstripped binaries (symbols for the stacks) and a gdb with its libraries, if carried.
[ -f .gpu/hunt_bins.tar.xz ] && python3 -c "import tarfile; tarfile.open('.gpu/hunt_bins.tar.xz').extractall('/tmp/wr')"
GDB=$(command -v gdb || true)
if [ -z "$GDB" ] && [ -f .gpu/gdbb.tar.xz ]; then
  python3 -c "import tarfile; tarfile.open('.gpu/gdbb.tar.xz').extractall('/tmp')"
  # gdb's embedded Python needs its standard library (py311.tar.xz: usr/lib/python3.11, usr/share/gdb).
  mkdir -p /tmp/pyhome
  python3 -c "import tarfile; tarfile.open('.gpu/py311.tar.xz').extractall('/tmp/pyhome')"
  printf '#!/bin/sh\nPYTHONHOME=/tmp/pyhome/usr exec /tmp/gdbb/lib/ld-linux-x86-64.so.2 --library-path /tmp/gdbb/lib /tmp/gdbb/gdb -nx --data-directory=/tmp/pyhome/usr/share/gdb "$@"\n' >/tmp/gdbb/run
  chmod +x /tmp/gdbb/run
  GDB=/tmp/gdbb/run
fi
echo "gdb: ${GDB:-none}" | tee -a "$LOG"
HANG_S=${HANG_S:-30}
for i in $(seq 1 "${RUNS:-4}"); do
  for t in ${TESTS:-special errors recorder pool}; do
    for threads in ${THREADS:-0 1}; do
      args=(--skip msl_of)
      [ "$threads" = 0 ] || args+=(--test-threads="$threads")
      /tmp/wr/t/$t "${args[@]}" >/tmp/wr/run.log 2>&1 &
      pid=$!
      waited=0
      while kill -0 $pid 2>/dev/null && [ $waited -lt $((HANG_S * 10)) ]; do sleep 0.1; waited=$((waited + 1)); done
      if kill -0 $pid 2>/dev/null; then
        echo "== HANG run $i $t threads=$threads after ${HANG_S}s; last lines:" | tee -a "$LOG"
        tail -5 /tmp/wr/run.log >>"$LOG"
        if [ -n "$GDB" ]; then
          timeout 60 $GDB -p $pid -batch -ex "thread apply all bt 30" >>"$LOG" 2>&1
        else
          for task in /proc/$pid/task/*; do echo "-- $task $(cat $task/comm) $(cat $task/wchan 2>/dev/null)" >>"$LOG"; done
        fi
        kill -9 $pid
        wait $pid 2>/dev/null
      else
        wait $pid
        rc=$?
        echo "run $i $t threads=$threads exit $rc $(grep -E 'test result' /tmp/wr/run.log | tail -1)" | tee -a "$LOG"
        if [ $rc -ge 128 ]; then
          echo "== CRASH (signal $((rc - 128))); last lines:" >>"$LOG"
          tail -8 /tmp/wr/run.log >>"$LOG"
          if [ -n "$GDB" ]; then
            timeout 60 $GDB -batch -ex run -ex "thread apply all bt 30" --args /tmp/wr/t/$t "${args[@]}" >>"$LOG" 2>&1
          fi
        fi
      fi
    done
  done
done
grep -cE "HANG|CRASH" "$LOG"
