#!/bin/bash
# `warpscope debug` and the servers a program starts, one per device.
#   debug_devices.sh WARPSCOPE GDB_APP KERNELS.elf cli|two|two_direct|jtag_two
# cli: `warpscope debug -- warpscope run ...`. The warpscope command links
#   the static library but closes every device it opens (its ELF note
#   says so): no note that the exit closer cannot reach it (until
#   2026-11-28 the note was printed), and the run is served as usual.
# two: gdb_app two_devices under `warpscope debug --port-file`: the
#   second device's server is announced too, and the port file names
#   both servers, the first device's first (until 2026-11-28 the second
#   server rewrote the file and was never announced); a gdb on each.
# two_direct: the same with WARPSCOPE_DEBUG's port-file= (the library's
#   own file: a line per device), after a stale file from an earlier run
#   (replaced, not appended to).
# jtag_two: the JTAG port's WARPSCOPE_JTAG port-file= for the same program
#   (no probe connects: the program runs through): a line per device, in
#   opening order, after a stale file (until 2026-11-28 the second device's
#   JTAG server rewrote the file, which then named only it).
set -u
cli=$1 app=$2 kelf=$3 mode=$4
work=$(mktemp -d)
apid=
cleanup() { [ -n "$apid" ] && kill "$apid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# wait_lines N: until the port file has N lines
wait_lines() {
  local n
  for _ in $(seq 300); do
    n=$(grep -c . "$work/port" 2>/dev/null)
    [ "${n:-0}" -ge "$1" ] && return 0
    sleep 0.1
  done
  return 1
}
# gdb_on LINE NAME: a gdb on the server named by line LINE of the port file
gdb_on() {
  timeout 60 gdb-multiarch -q -batch -ex "target remote 127.0.0.1:$(sed -n "$1p" "$work/port")" -ex continue \
    > "$work/$2.out" 2>&1 &
}
if [ "$mode" = jtag_two ]; then
  echo 1 > "$work/port"
  WARPSCOPE_JTAG="port=0,port-file=$work/port" timeout 60 "$app" two_devices "$kelf" > "$work/app.out" 2>&1
  rc=$?
  echo "---- program (exit $rc) ----"; cat "$work/app.out"
  echo "---- port file ----"; cat "$work/port"
  [ "$rc" = 0 ] || fail "the program exited $rc"
  grep -q "result ok" "$work/app.out" || fail "gdb_app's result"
  [ "$(grep -c . "$work/port")" = 2 ] || fail "the port file does not hold two lines"
  p1=$(sed -n 1p "$work/port") p2=$(sed -n 2p "$work/port")
  [ "$p1" != 1 ] && [ "$p2" != 1 ] || fail "the stale line stayed"
  [ "$p1" != "$p2" ] || fail "one port twice"
  echo "$fails failed"
  [ "$fails" = 0 ]
  exit
fi
case "$mode" in
  cli)
    timeout 60 "$cli" debug --port-file "$work/port" -- "$cli" run "$kelf" scale zeros:64 iota:64 64 \
      > "$work/app.out" 2> "$work/app.err" &
    apid=$! ;;
  two)
    timeout 60 "$cli" debug --port-file "$work/port" -- "$app" two_devices "$kelf" > "$work/app.out" 2> "$work/app.err" &
    apid=$! ;;
  two_direct)
    echo 1 > "$work/port" # stale: port 1 is no server of the program's
    WARPSCOPE_DEBUG="port=0,port-file=$work/port,connect-timeout=30000" timeout 60 "$app" two_devices "$kelf" \
      > "$work/app.out" 2> "$work/app.err" &
    apid=$!
    for _ in $(seq 300); do [ "$(head -1 "$work/port")" != 1 ] && break; sleep 0.1; done ;;
esac
wait_lines 1 || fail "the program never listened"
gdb_on 1 gdb1
if [ "$mode" != cli ]; then
  wait_lines 2 || fail "the second device's server is not in the port file"
  gdb_on 2 gdb2
fi
wait "$apid"; rc=$?; apid=
wait
echo "---- program (exit $rc) ----"; cat "$work/app.out" "$work/app.err"
echo "---- port file ----"; cat "$work/port"
for g in "$work"/gdb*.out; do echo "---- $(basename "$g") ----"; cat "$g"; done
[ "$rc" = 0 ] || fail "the program exited $rc"
grep -q "exited normally" "$work/gdb1.out" || fail "the first gdb did not hear the end"
if [ "$mode" = cli ]; then
  grep -q "cannot reach" "$work/app.err" && fail "a note about the exit closer"
  grep -q "scale: .*thread-instructions" "$work/app.out" || fail "warpscope run did not run"
else
  grep -q "result ok" "$work/app.out" || fail "gdb_app's result"
  [ "$(grep -c . "$work/port")" = 2 ] || fail "the port file does not hold two lines"
  p1=$(sed -n 1p "$work/port") p2=$(sed -n 2p "$work/port")
  [ "$p1" != "$p2" ] || fail "one port twice"
  grep -q "exited normally" "$work/gdb2.out" || fail "the second gdb did not hear the end"
  if [ "$mode" = two ]; then
    [ "$(grep -c "^listening on 127.0.0.1:" "$work/app.out")" = 2 ] || fail "not two servers announced"
    grep -q "^listening on 127.0.0.1:$p1$" "$work/app.out" || fail "the first server not announced"
    grep -q "^listening on 127.0.0.1:$p2$" "$work/app.out" || fail "the second server not announced"
  fi
fi
echo "$fails failed"
[ "$fails" = 0 ]
