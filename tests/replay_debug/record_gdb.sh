#!/bin/bash
# One `warpscope debug --record` scenario: PROGRAM KERNEL.elf ARGS is
# recorded and served, gdb-multiarch runs the scenario's commands in
# batch mode, and its directives are checked against gdb's and the
# command's output (as run_rd_gdb.sh does; @MARK_name@ is the line of
# "MARK:name" in the kernel's source, PROGRAM_kernel.c here, if any).
#   record_gdb.sh WARPSCOPE PROGRAM KERNEL.elf SCENARIO.gdb [ARGS...]
# Directives: "# expect-gdb: RE", "# reject-gdb: RE", "# count-gdb: N RE"
# (gdb's output), "# expect-out: RE" (the command's).
# @WORK@ is the scratch directory.
set -u
ws=$1 prog=$2 kelf=$3 scenario=$4
shift 4
. "$(dirname "$0")/lib.sh"
src="$(dirname "$0")/$(basename "$prog")_kernel.c"
marks=(-e "s|@WORK@|$work|g")
while IFS=: read -r line rest; do
  name=$(sed -n 's/.*MARK:\([a-z_]*\).*/\1/p' <<<"$rest")
  marks+=(-e "s/@MARK_${name}@/${line}/g")
done < <([ -f "$src" ] && grep -n 'MARK:' "$src")
sed "${marks[@]}" "$scenario" > "$work/scenario"
timeout 170 "$ws" debug --record --port-file "$work/port" -- "$prog" "$kelf" "$@" > "$work/debug.out" 2>&1 &
rpid=$!
for _ in $(seq 600); do [ -s "$work/port" ] && break; kill -0 "$rpid" 2>/dev/null || break; sleep 0.1; done
[ -s "$work/port" ] || { echo "FAIL: debug --record never listened"; cat "$work/debug.out"; exit 1; }
args=(-batch -nx -ex "set pagination off" -ex "set confirm off" -ex "set breakpoint pending on"
      -ex "target remote 127.0.0.1:$(cat "$work/port")")
while IFS= read -r l; do
  case "$l" in ''|'#'*) continue ;; esac
  args+=(-ex "$l")
done < "$work/scenario"
timeout 150 gdb-multiarch "${args[@]}" > "$work/gdb.out" 2>&1
gdb_rc=$?
wait "$rpid"; rc=$?; rpid=
echo "---- gdb (exit $gdb_rc) ----"; cat "$work/gdb.out"
echo "---- debug --record (exit $rc) ----"; cat "$work/debug.out"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
while IFS= read -r l; do
  case "$l" in
    '# expect-gdb: '*) re=${l#\# expect-gdb: }; grep -Eq -- "$re" "$work/gdb.out" || bad "gdb output lacks: $re" ;;
    '# reject-gdb: '*) re=${l#\# reject-gdb: }; grep -Eq -- "$re" "$work/gdb.out" && bad "gdb output has: $re" ;;
    '# expect-out: '*) re=${l#\# expect-out: }; grep -Eq -- "$re" "$work/debug.out" || bad "the command's output lacks: $re" ;;
    '# count-gdb: '*) spec=${l#\# count-gdb: }; want=${spec%% *}; re=${spec#* }
      got=$(grep -Ec -- "$re" "$work/gdb.out")
      [ "$got" = "$want" ] || bad "$got lines match $re, expected $want" ;;
  esac
done < "$work/scenario"
[ "$gdb_rc" = 124 ] && bad "gdb timed out"
echo "$fails failed"
[ "$fails" = 0 ]
