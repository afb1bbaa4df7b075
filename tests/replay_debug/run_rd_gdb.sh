#!/bin/bash
# One frame-debugger scenario: rd_capture_serve writes a capture of the
# rd_kernels.c frame and serves gdb over its replay; gdb-multiarch runs
# the scenario's commands in batch mode; the expectations are checked
# against gdb's and the driver's output.
#   run_rd_gdb.sh SRCDIR SCENARIO.gdb DRIVER [ARGS...]
# The driver gets ARGS (@WORK@ = the scenario's scratch directory) and
# then the server spec (port-file in the scratch directory).
# Scenario directives (as tests/gdb/run_gdb.sh):
#   # expect-gdb: RE   gdb's output must match RE (grep -E)
#   # reject-gdb: RE   ... must not match RE
#   # count-gdb: N RE  exactly N lines of gdb's output match RE
# @MARK_name@ becomes the line of "MARK:name" in rd_kernels.c; @SRCDIR@
# the test's source directory, @WORK@ the scratch directory.
set -u
srcdir=$1 scenario=$2 driver=$3
shift 3
work=$(mktemp -d)
dargs=()
for a in "$@"; do dargs+=("${a//@WORK@/$work}"); done
dpid=
cleanup() { [ -n "$dpid" ] && kill "$dpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

marks=(-e "s|@SRCDIR@|$srcdir|g" -e "s|@WORK@|$work|g")
while IFS=: read -r line rest; do
  name=$(sed -n 's/.*MARK:\([a-z_]*\).*/\1/p' <<<"$rest")
  marks+=(-e "s/@MARK_${name}@/${line}/g")
done < <(grep -n 'MARK:' "$srcdir/rd_kernels.c")
sed "${marks[@]}" "$scenario" > "$work/scenario"

timeout ${WS_GDB_TEST_TIMEOUT:-150} "$driver" "${dargs[@]}" \
  "port=0,port-file=$work/port,connect-timeout=30000" > "$work/driver.out" 2>&1 &
dpid=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
if [ ! -s "$work/port" ]; then
  echo "FAIL: the driver never listened"; cat "$work/driver.out"; exit 1
fi
port=$(cat "$work/port")
args=(-batch -nx -ex "set pagination off" -ex "set confirm off" -ex "target remote 127.0.0.1:$port")
while IFS= read -r l; do
  case "$l" in ''|'#'*) continue ;; esac
  args+=(-ex "$l")
done < "$work/scenario"
timeout ${WS_GDB_TEST_TIMEOUT:-150} gdb-multiarch "${args[@]}" > "$work/gdb.out" 2>&1
gdb_rc=$?
wait "$dpid"; drv_rc=$?; dpid=

echo "---- gdb (exit $gdb_rc) ----"; cat "$work/gdb.out"
echo "---- driver (exit $drv_rc) ----"; cat "$work/driver.out"
fails=0
while IFS= read -r l; do
  case "$l" in
    '# expect-gdb: '*) re=${l#\# expect-gdb: }
      grep -Eq -- "$re" "$work/gdb.out" || { echo "FAIL: gdb output lacks: $re"; fails=$((fails+1)); } ;;
    '# reject-gdb: '*) re=${l#\# reject-gdb: }
      grep -Eq -- "$re" "$work/gdb.out" && { echo "FAIL: gdb output has: $re"; fails=$((fails+1)); } ;;
    '# count-gdb: '*) spec=${l#\# count-gdb: }; want=${spec%% *}; re=${spec#* }
      got=$(grep -Ec -- "$re" "$work/gdb.out")
      [ "$got" = "$want" ] || { echo "FAIL: $got lines match $re, expected $want"; fails=$((fails+1)); } ;;
  esac
done < "$work/scenario"
[ "$drv_rc" = 0 ] || { echo "FAIL: driver exit $drv_rc"; fails=$((fails+1)); }
[ "$gdb_rc" = 124 ] && { echo "FAIL: gdb timed out"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
