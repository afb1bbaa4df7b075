#!/bin/bash
# A kernel fault seen through OpenOCD (docs/jtag-openocd.md): gdb-multiarch
# stops at a hardware breakpoint, points the kernel's `out` into the null
# guard page and continues; the store faults and the hart halts there.
# OpenOCD must take the halt without an error: until 2026-11-28 dcsr.cause
# read 7, which OpenOCD 0.12 does not know ("Unknown DCSR cause field:
# 0x7", "undefined debug reason ... target needs reset", gdb "Program
# stopped." with no signal). Leaving ends the launch with the fault.
# With `watch`: a watchpoint on the null address stops the hart at that
# store first, and gdb continues from it: OpenOCD steps over the trigger
# (the store faults in the step) and resumes; the hart must halt on the
# fault after the resume. Until 2026-11-28 the step ended on the fault,
# OpenOCD never looked, its resume ended the launch, and gdb lost the
# target ("Remote connection closed").
#   run_gdb_openocd_fault.sh JTAG_APP KERNELS.elf KERNELS.c CFG [watch]
set -u
app=$1 kelf=$2 ksrc=$3 cfg=$4 mode=${5:-}
. "$(dirname "$0")/lib.sh"

line=$(grep -n 'MARK:result' "$ksrc" | cut -d: -f1)
start_app "$app" "$kelf"
ocd=$(ocd_pipe "$cfg" 0)
timeout 90 gdb-multiarch -batch -nx "$kelf" -ex "set pagination off" -ex "set confirm off" \
  -ex "target extended-remote | $ocd" \
  -ex "hbreak jtag_kernels.c:$line" -ex "set var *(int *)$go = 0x600d" -ex 'continue' -ex 'echo T_BREAK\n' \
  -ex 'set var out = (int *)16' -ex 'delete' \
  ${mode:+-ex 'watch *(int *)16' -ex 'continue' -ex 'echo T_WATCH\n' -ex 'x/i $pc'} \
  -ex 'continue' -ex 'echo T_FAULT\n' -ex 'x/i $pc' -ex 'p/x $dcsr' \
  -ex 'detach' > "$work/gdb.out" 2>&1
wait "$apid"; rc=$?; apid=
g=$work/gdb.out
check "stopped at the breakpoint line" has "$g" "jtag_kernels.c:$line"
if [ -n "$mode" ]; then
  sed -n '/^T_WATCH/,/^T_FAULT/p' "$g" > "$work/after_watch"
  check "the watchpoint stops the hart" has "$g" "^Hardware watchpoint 2: \*\(int \*\)16"
  check "... at the store" test "$(grep -A1 '^T_WATCH' "$g" | grep -cE '<gate\+[0-9]+>:[[:space:]]+(c\.)?sw[[:space:]]')" -eq 1
  check "continue from it stops at the fault" has "$work/after_watch" "^Program received signal SIGINT"
fi
check "the fault halts the hart, reported as an interrupt" has "$g" "^Program received signal SIGINT"
check "... at the faulting store" grep -qE "^=> 0x[0-9a-f]+ <gate\+[0-9]+>:[[:space:]]+(c\.)?sw[[:space:]]" "$g"
check "dcsr.cause reads 3" test "$(( $(sed -n 's/^\$[0-9]* = \(0x[0-9a-f]*\)$/\1/p' "$g" | tail -1) >> 6 & 7 ))" -eq 3
check "OpenOCD knows the cause" hasnt "$work/ocd.log" "Unknown DCSR cause|undefined debug reason"
check "program exit status 1" test "$rc" -eq 1
check "the launch ends with the fault" has "$work/app.err" "WS_ERR_KERNEL_FAULT: store access fault: write of 4 bytes at 0x00000010: null pointer"
if [ $failn -ne 0 ]; then
  echo "--- gdb"; grep -v '^Hart' "$g" | tail -30; echo "--- OpenOCD"; grep -v 'Failed to read memory\|progbuf=' "$work/ocd.log" | tail -20
  echo "--- program"; tail -n 8 "$work/app.out" "$work/app.err"
fi
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
