#!/bin/bash
# gdb-multiarch through OpenOCD on two lanes of one diverged warp (harts 0
# and 1 of jtag_app's split_gate: even and odd threads wait in two loops):
# `stepi` of either thread moves that thread and stops on it, not on the
# other (each hart reads its own halt cause: docs/jtag-openocd.md).
#   run_gdb_openocd_split.sh JTAG_APP KERNELS.elf CFG
set -u
app=$1 kelf=$2 cfg=$3
. "$(dirname "$0")/lib.sh"

export JTAG_APP_SPLIT=1
start_app "$app" "$kelf"
ocd=$(ocd_pipe "$cfg" "0 1" '-c "set WARPSCOPE_SMP 1"')
timeout 90 gdb-multiarch -batch -nx "$kelf" -ex "set pagination off" -ex "set confirm off" \
  -ex "target extended-remote | $ocd" \
  -ex 'thread 2' -ex 'p/x $pc' -ex 'echo T_STEP2\n' -ex 'stepi' -ex 'p/x $pc' -ex 'thread' \
  -ex 'stepi' -ex 'p/x $pc' -ex 'echo T_THREAD1\n' -ex 'thread 1' -ex 'p/x $pc' -ex 'echo T_STEP1\n' \
  -ex 'stepi' -ex 'p/x $pc' -ex 'thread' \
  -ex "set var *(int *)$go = 1" -ex 'detach' > "$work/gdb.out" 2>&1
wait "$apid"; rc=$?; apid=
g=$work/gdb.out
pcs() { sed -n "/$1/,/$2/s/^\\\$[0-9]* = \\(0x[0-9a-f]*\\)\$/\\1/p" "$g"; }
p2=($(pcs '^\[Switching to thread 2' T_THREAD1))
p1=($(pcs T_THREAD1 '^\[Current thread is 1'))
check "thread 2's pc before and after two steps (${p2[*]:-})" test "${#p2[@]}" -eq 3
check "... its first step moved it" test "${p2[0]:-x}" != "${p2[1]:-x}"
check "... and its second" test "${p2[1]:-x}" != "${p2[2]:-x}"
check "stepi of thread 2 stops on thread 2" has "$g" '^\[Current thread is 2 \(Thread 2\)\]'
check "... not on thread 1" hasnt "$(sed -n '/T_STEP2/,/T_THREAD1/p' "$g" > "$work/s2"; echo "$work/s2")" 'Switching to Thread 1|Thread 1 .*received signal'
check "thread 1's step moved it (${p1[*]:-})" test "${#p1[@]}" -eq 2 -a "${p1[0]:-x}" != "${p1[1]:-x}"
check "... and stopped on it" has "$g" '^\[Current thread is 1 \(Thread 1\)\]'
check "program exit status 0" test "$rc" -eq 0
check "results correct" has "$work/app.out" "^result ok"
if [ $failn -ne 0 ]; then
  echo "--- gdb"; grep -v unavailable "$g" | tail -40; echo "--- program"; tail -n 8 "$work/app.out" "$work/app.err"
fi
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
