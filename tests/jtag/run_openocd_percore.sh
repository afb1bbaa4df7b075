#!/bin/bash
# Per-core debug modules through JTAG with Debian's OpenOCD
# (docs/jtag-openocd.md, "Per-core debug modules").
#   run_openocd_percore.sh JTAG_APP KERNELS.elf CFG
# jtag_app runs 2 cores x 4 warps x 32 lanes under
# WARPSCOPE_JTAG=topology=per-core: two TAPs in one chain, each in front of
# one core's debug module, each module numbering its 128 harts from 0.
# OpenOCD examines both, halts hart 0 of module 0 and hart 33 of module 1
# (global hart 161), reads mhartid and pc, opens the gate through module
# 1's system bus, resumes both; the program's results must be right.
set -u
app=$1 kelf=$2 cfg=$3
. "$(dirname "$0")/lib.sh"

# TOPOLOGY=groups:1 takes the group topology's path to the same two modules
start_app "$app" "$kelf" "topology=${TOPOLOGY:-per-core}"

o=$work/ocd.out
timeout 60 openocd -c "set WARPSCOPE_PORT $port" -c "set WARPSCOPE_MODULES 2" -c "set WARPSCOPE_HARTS {0 33}" \
  -f "$cfg" -c "gdb_port disabled" -c "tcl_port disabled" -c "telnet_port disabled" -c init \
  -c 'targets warpscope.dm0.hart0' -c 'halt' -c 'echo "state_a=[warpscope.dm0.hart0 curstate]"' \
  -c 'reg mhartid' -c 'reg pc' \
  -c 'targets warpscope.dm1.hart33' -c 'halt' -c 'echo "state_b=[warpscope.dm1.hart33 curstate]"' \
  -c 'reg mhartid' -c 'reg pc' \
  -c 'echo "other=[warpscope.dm1.hart0 curstate]"' \
  -c "mww $go 0x600d" -c "mdw $go 1" \
  -c 'resume' -c 'targets warpscope.dm0.hart0' -c 'resume' \
  -c 'echo "after=[warpscope.dm0.hart0 curstate] [warpscope.dm1.hart33 curstate]"' -c shutdown > "$o" 2>&1
wait "$apid"; rc=$?; apid=

check "OpenOCD finds two TAPs" test "$(grep -c 'tap/device found: 0x15753ffd' "$o")" -eq 2
check "each module counts 128 harts" test "$(grep -c 'Examined RISC-V core; found 128 harts' "$o")" -eq 4
# Until the gate opens; after it the warps OpenOCD did not halt end and
# its polling calls their harts unavailable (documented).
sed '/^other=/q' "$o" > "$work/before"
check "no OpenOCD errors while the kernel runs" hasnt "$work/before" "^Error"
check "after the gate: only 'unavailable' errors" hasnt <(grep '^Error' "$o" | grep -v "is unavailable") .
check "no OpenOCD warnings" hasnt "$o" "^Warn"
check "module 0 hart 0 halts" has "$o" "^state_a=halted"
check "module 1 hart 33 halts" has "$o" "^state_b=halted"
check "module 1 hart 0 still runs (non-stop, another warp)" has "$o" "^other=running"
check "mhartid through module 0: 0" has "$o" "^mhartid \(/32\): 0x00000000"
check "mhartid through module 1: 128 + 33" has "$o" "^mhartid \(/32\): 0x000000a1"
pcs=($(sed -n 's/^pc (\/32): //p' "$o"))
check "two pcs read (${pcs[*]:-none})" test "${#pcs[@]}" -eq 2 -a "${pcs[0]:-0x00000000}" != 0x00000000
check "the gate written through module 1's system bus" has "$o" "^$go: 0000600d"
check "both resumed" has "$o" "^after=running running"
check "program exit status 0" test "$rc" -eq 0
check "the debugger opened the gate" has "$work/app.out" "^go=0x0000600d after [0-9]+ spins"
check "results correct" has "$work/app.out" "^result ok"
check "the server built a chain of two TAPs" has "$work/app.err" "JTAG: probe connected \(2 TAPs\)"
check "the server saw the probe quit" has "$work/app.err" "JTAG: the probe quit; [0-9]+ DMI accesses"
if [ $failn -ne 0 ]; then
  echo "--- OpenOCD"; tail -40 "$o"; echo "--- program"; tail -n 20 "$work/app.out" "$work/app.err"
fi
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
