#!/bin/bash
# gdb-multiarch through OpenOCD through the JTAG port (docs/jtag-openocd.md):
# attach to jtag_app's running kernel (harts 0 and 37 as two gdb threads
# of one SMP group), read registers of both and global memory,
# call a device function from gdb on hart 0 (while the gate is closed:
# through OpenOCD the call resumes hart 37 too, and a hart whose lane
# ends meanwhile is unavailable, which OpenOCD 0.12 cannot halt again),
# open the gate, stop at a hardware breakpoint on a kernel line, step,
# detach; the program's results must be right.
# gdb loads the exit stub's symbols (add-symbol-file STUB.elf, as
# docs/jtag-openocd.md says): the backtrace ends at __ws_thread_exit, and
# gdb's unwinding no longer reads the null guard page through OpenOCD.
#   run_gdb_openocd.sh JTAG_APP KERNELS.elf KERNELS.c CFG STUB.elf
set -u
app=$1 kelf=$2 ksrc=$3 cfg=$4 stub=$5
. "$(dirname "$0")/lib.sh"

line=$(grep -n 'MARK:result' "$ksrc" | cut -d: -f1)
start_app "$app" "$kelf"
ocd=$(ocd_pipe "$cfg" "0 37" '-c "set WARPSCOPE_SMP 1"')
t0=$(date +%s.%N)
timeout 90 gdb-multiarch -batch -nx "$kelf" -ex "set pagination off" -ex "set confirm off" \
  -ex "add-symbol-file $stub" -ex "target extended-remote | $ocd" \
  -ex 'echo T_ATTACHED\n' \
  -ex 'info registers pc' -ex 'p/x $mhartid' \
  -ex 'info threads' -ex 'thread 2' -ex 'echo T_LANE37\n' -ex 'p/x $mhartid' -ex 'p/x $tp' -ex 'thread 1' \
  -ex "x/4wx $pat" \
  -ex 'print triple(14)' -ex 'echo T_CALLED\n' -ex 'bt 1' \
  -ex "hbreak jtag_kernels.c:$line" \
  -ex "set var *(int *)$go = 0x600d" \
  -ex 'continue' -ex 'echo T_BREAK\n' -ex 'bt' \
  -ex 'p/x $pc' -ex 'stepi' -ex 'p/x $pc' -ex 'info line *$pc' \
  -ex 'delete' -ex "watch *(int *)$out" -ex 'continue' -ex 'echo T_WATCH\n' -ex 'x/i $pc' -ex "x/wx $out" \
  -ex "delete" -ex "detach" > "$work/gdb.out" 2>&1
t1=$(date +%s.%N)
wait "$apid"; rc=$?; apid=
g=$work/gdb.out
check "gdb attached through OpenOCD" has "$g" "T_ATTACHED"
check "mhartid of hart 0" has "$g" '^\$1 = 0x0$'
check "hart 37 is gdb's thread 2" has "$g" '^  2 +Thread 38 "warpscope.hart37"'
check "mhartid of hart 37" test "$(grep -A1 T_LANE37 "$g" | tail -1)" = '$2 = 0x25'
check "global memory" has "$g" "^$(printf '0x%x' "$pat"):.*0x11111111.*0x22222222.*0xdeadbeef.*0x0badf00d"
check "hardware breakpoint set" has "$g" "Hardware assisted breakpoint 1 at .*line $line"
check "stopped at the breakpoint line" has "$g" "jtag_kernels.c:$line"
check "the backtrace ends at the exit stub" has "$g" '^#1  0xffff0000 in __ws_thread_exit \(\)$'
check "... cleanly" hasnt "$g" "corrupt stack"
check "a device function called from gdb returns" has "$g" '^\$[0-9]+ = 42$'
wline=$(grep -n 'MARK:wait' "$ksrc" | cut -d: -f1)
check "... and hart 0 is back in its loop" \
  test "$(grep -A1 T_CALLED "$g" | tail -1 | grep -cE "^#0 .*gate \(.*jtag_kernels.c:$wline$")" = 1
check "gdb's unwinding reads no null guard page" hasnt "$work/ocd.log" "Failed to read memory \(addr=0x"
pcs=($(sed -n 's/^\$[0-9]* = \(0x[0-9a-f]*\)$/\1/p' "$g" | tail -2))
check "stepi moves the pc (${pcs[*]:-})" test "${#pcs[@]}" -eq 2 -a "${pcs[0]:-x}" != "${pcs[1]:-x}"
check "watchpoint set" has "$g" "^Hardware watchpoint 2: \*\(int \*\)$out"
# The trigger stops the hart before the store (timing "before"). OpenOCD
# 0.12 names the watchpoint only for a 32-bit load/store; this one is
# c.sw, so gdb shows SIGTRAP at it (docs/jtag-openocd.md).
check "watchpoint stops at the store" grep -qE "^=> 0x[0-9a-f]+ <gate\+[0-9]+>:[[:space:]]+(c\.)?sw[[:space:]]" "$g"
check "... before out[0] is written" has "$g" "^$(printf '0x%x' "$out"):[[:space:]]+0x00000000$"
check "program exit status 0" test "$rc" -eq 0
check "gate opened by gdb" has "$work/app.out" "^go=0x0000600d"
check "results correct" has "$work/app.out" "^result ok"
echo "gdb session through OpenOCD: $(echo "$t1 - $t0" | bc) s"
if [ $failn -ne 0 ]; then
  echo "--- gdb"; tail -40 "$g"; echo "--- OpenOCD"; tail -20 "$work/ocd.log"; echo "--- program"; tail -n 8 "$work/app.out" "$work/app.err"
fi
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
