#!/bin/bash
# End to end with Debian's OpenOCD over remote_bitbang (docs/jtag-openocd.md).
#   run_openocd.sh MODE JTAG_APP KERNELS.elf CFG [WARPSCOPE]
# With WARPSCOPE (the CLI), the program starts as `warpscope debug --jtag`.
# MODE examine: OpenOCD examines the device while jtag_app's 256 threads
#   wait at a gate, halts harts 0 and 37, reads their registers and global
#   memory, steps, writes the gate open through the system bus, resumes;
#   the program's results must be right.
# MODE badinput: garbage on the socket, a disconnect in Shift-DR, and an
#   OpenOCD killed while it holds a hart halted; each gives a clear message,
#   then a fourth probe opens the gate and the program finishes with the
#   right results.
# MODE ends: the program closes its device as soon as its kernel ends (no
#   hold). OpenOCD halts hart 0, writes the gate open, and resumes: the
#   kernel ends and the program closes the device between the resume and
#   OpenOCD's reads of its status. The resume must succeed, and the end
#   be reported as the hart becoming unavailable, not as failed accesses
#   (the dead bus made OpenOCD call the resume, or a write, failed).
# MODE ends_noclose (with WARPSCOPE): as ends, under `warpscope debug
#   --jtag`, with a program that returns 3 from main without closing its
#   device (as after a failed check): the exit must close it the same way
#   (the JTAG server used to die with the process in the middle of
#   OpenOCD's session: "Failed to write memory via system bus").
set -u
mode=$1 app=$2 kelf=$3 cfg=$4 cli=${5:-}
. "$(dirname "$0")/lib.sh"

limit=6000000 hold=2000 life=100
# badinput's kernel spins until its last probe opens the gate (no limit to
# race: between probes it runs at full speed on the fast engine)
[ "$mode" = badinput ] && limit=2000000000 life=200
extra=()
[ "$mode" = ends ] && limit=2000000000 hold=0
[ "$mode" = ends_noclose ] && limit=2000000000 hold=0 extra=(noclose)
if [ -n "$cli" ]; then
  timeout $life "$cli" debug --jtag --port-file "$work/port" -- "$app" "$kelf" $limit $hold "${extra[@]}" > "$work/app.out" 2> "$work/app.err" &
else
  WARPSCOPE_JTAG="port=0,port-file=$work/port" timeout $life "$app" "$kelf" $limit $hold > "$work/app.out" 2> "$work/app.err" &
fi
apid=$!
wait_for_app

ocd_args() { # the shipped config with these commands, no servers
  args=(-c "set WARPSCOPE_PORT $port" -c "set WARPSCOPE_HARTS {0 37}" -f "$cfg"
        -c "gdb_port disabled" -c "tcl_port disabled" -c "telnet_port disabled" -c init)
  for c in "$@"; do args+=(-c "$c"); done
}
ocd() { # ocd OUTPUT COMMANDS...
  local out=$1; shift
  ocd_args "$@"
  timeout 60 openocd "${args[@]}" > "$out" 2>&1
}

# write_that_ends STATUS: halt hart 0, write the gate the kernel spins on,
# resume; the program ends (and its device closes) as OpenOCD goes on
# reading status. Every access must succeed, the end show as the hart
# unavailable, and the program exit with STATUS.
write_that_ends() {
  ocd "$work/ocd.out" 'targets warpscope.hart0' 'halt' 'echo "state0=[warpscope.hart0 curstate]"' \
    "mww $go 0x600d" 'echo "T_WRITTEN"' 'resume' 'echo "T_RESUMED"' 'sleep 300' 'shutdown'
  wait "$apid"; rc=$?; apid=
  o=$work/ocd.out
  check "hart 0 halts" has "$o" "^state0=halted"
  check "the write succeeds" has "$o" "^T_WRITTEN"
  check "the resume succeeds" has "$o" "^T_RESUMED"
  check "no failed DMI accesses" hasnt "$o" "[Ff]ailed"
  check "the program's end: hart 0 unavailable" has "$o" "^Error: Hart 0 is unavailable"
  check "only 'unavailable' errors" hasnt <(grep '^Error' "$o" | grep -v "is unavailable") .
  check "program exit status $1 (got $rc)" test "$rc" -eq "$1"
  check "the debugger opened the gate" has "$work/app.out" "^go=0x0000600d after [0-9]+ spins"
  check "results correct" has "$work/app.out" "^result ok"
}

if [ "$mode" = examine ]; then
  t0=$(date +%s.%N)
  ocd "$work/ocd.out" \
    'echo "T_EXAMINED"' \
    'targets warpscope.hart0' 'halt' 'echo "state0=[warpscope.hart0 curstate]"' \
    'reg pc' 'reg dpc' 'reg mhartid' 'reg zero' \
    'targets warpscope.hart37' 'halt' 'echo "state37=[warpscope.hart37 curstate]"' 'reg mhartid' \
    "mdw $pat 4" \
    'echo "ms_halt=[warpscope_modeswitch halt 1]"' 'sleep 100' 'echo "haltsum_a=[riscv dmi_read 0x13]"' \
    'echo "ms_run=[warpscope_modeswitch run 1]"' 'sleep 100' 'echo "haltsum_b=[riscv dmi_read 0x13]"' \
    'echo "ms_bad=[warpscope_modeswitch halt 7]"' \
    'targets warpscope.hart0' 'step' 'reg pc' \
    "mdw $go 1" "mww $go 0x600d" "mdw $go 1" \
    'resume' 'targets warpscope.hart37' 'resume' \
    'echo "state_after=[warpscope.hart0 curstate]"' 'shutdown'
  t1=$(date +%s.%N)
  wait "$apid"; rc=$?; apid=
  o=$work/ocd.out
  check "OpenOCD finds the TAP" has "$o" "tap/device found: 0x15753ffd"
  check "OpenOCD counts 256 harts" has "$o" "Examined RISC-V core; found 256 harts"
  check "XLEN and misa" has "$o" "hart 0: XLEN=32, misa=0x40001125"
  # Until the gate opens; after it the kernel ends, its lanes become
  # unavailable harts, and OpenOCD's polling says so (documented).
  sed '/: 0000600d/q' "$o" > "$work/before"
  check "no OpenOCD errors while the kernel runs" hasnt "$work/before" "^Error"
  check "after the kernel: only 'unavailable' errors" hasnt <(grep '^Error' "$o" | grep -v "is unavailable") .
  check "no OpenOCD warnings" hasnt "$o" "^Warn"
  check "hart 0 halts" has "$o" "^state0=halted"
  check "hart 37 halts" has "$o" "^state37=halted"
  check "mhartid of hart 0" has "$o" "^mhartid \(/32\): 0x00000000"
  check "mhartid of hart 37" has "$o" "^mhartid \(/32\): 0x00000025"
  check "zero reads 0" has "$o" "^zero \(/32\): 0x00000000"
  pcs=($(sed -n 's/^pc (\/32): //p' "$o"))
  dpc=$(sed -n 's/^dpc (\/32): //p' "$o")
  check "pc and dpc agree (${pcs[0]:-none} ${dpc:-none})" test -n "$dpc" -a "${pcs[0]:-x}" = "$dpc"
  check "a step moves the pc (${pcs[0]:-} -> ${pcs[1]:-})" test "${#pcs[@]}" -eq 2 -a "${pcs[0]:-x}" != "${pcs[1]:-x}"
  # harts 0 and 37 are warps 0 and 1 of core 0; core 1 holds warps 4-7
  check "mode switch reaches core 1" has "$o" "^ms_halt=0x0*1$"
  check "core 1 halted: haltsum1 = warps 0,1,4-7" has "$o" "^haltsum_a=0x0*f3$"
  check "core 1 runs again" has "$o" "^ms_run=0x0*1$"
  check "haltsum1 back to warps 0,1" has "$o" "^haltsum_b=0x0*3$"
  check "a core that does not exist is ignored" has "$o" "^ms_bad=0x0*100$"
  check "global memory through the system bus" has "$o" "^$pat: 11111111 22222222 deadbeef 0badf00d"
  check "the gate reads 0, then 0x600d" has "$o" "^$go: 0000600d"
  check "resumed" has "$o" "^state_after=running"
  check "program exit status 0" test "$rc" -eq 0
  check "the debugger opened the gate" has "$work/app.out" "^go=0x0000600d after [0-9]+ spins"
  check "results correct" has "$work/app.out" "^result ok"
  check "the server saw the probe quit" has "$work/app.err" "JTAG: the probe quit; [0-9]+ DMI accesses"
  [ -n "$cli" ] && check "the CLI reports the port" has "$work/app.out" "^JTAG remote_bitbang listening on 127.0.0.1:$port$"
  # once: the library says nothing more on stderr (until 2026-11-28 it did)
  [ -n "$cli" ] && check "the port is reported once" hasnt "$work/app.err" "listening"
  echo "OpenOCD session (examine, 2 halts, reads, step, write, 2 resumes): $(echo "$t1 - $t0" | bc 2>/dev/null || echo "?") s"
  grep "DMI accesses" "$work/app.err"
elif [ "$mode" = ends ]; then
  write_that_ends 0
  check "no failed access in the server's log" hasnt "$work/app.err" "failed DMI access"
  # The walkthrough's ending (docs/jtag-openocd.md): with hart 0 halted,
  # the gate written, a mode-switch frame runs every core; the program
  # ends and closes the device before OpenOCD reads the port's status.
  mv "$work/ocd.out" "$work/ocd1.out"
  rm -f "$work/port" "$work/app.out" "$work/app.err"
  WARPSCOPE_JTAG="port=0,port-file=$work/port" timeout $life "$app" "$kelf" $limit $hold > "$work/app.out" 2> "$work/app.err" &
  apid=$!
  wait_for_app
  ocd "$work/ocd.out" 'targets warpscope.hart0' 'halt' "mww $go 0x600d" \
    'echo "ms_run=[warpscope_modeswitch run all]"' 'sleep 300' 'shutdown'
  wait "$apid"; rc=$?; apid=
  o=$work/ocd.out
  check "the mode switch reached both cores" has "$o" "^ms_run=0x0*2$"
  check "no failed DMI accesses (mode switch)" hasnt "$o" "[Ff]ailed"
  check "only 'unavailable' errors (mode switch)" hasnt <(grep '^Error' "$o" | grep -v "is unavailable") .
  check "results correct (mode switch)" has "$work/app.out" "^result ok"
elif [ "$mode" = ends_noclose ]; then
  write_that_ends 3
  check "the server lived until the probe quit" has "$work/app.err" "JTAG: the probe quit; [0-9]+ DMI accesses"
  check "no failed access in the server's log" hasnt "$work/app.err" "failed DMI access"
else
  # 1. garbage
  exec 3<>"/dev/tcp/127.0.0.1/$port"; printf '0426x' >&3; sleep 0.5; exec 3>&-
  # 2. a disconnect in the middle of a DR scan (reset, Idle, Select-DR, Capture-DR, Shift-DR)
  exec 3<>"/dev/tcp/127.0.0.1/$port"; printf '262626262604260404R' >&3; sleep 0.3; exec 3>&-
  sleep 0.3
  # 3. OpenOCD halts hart 0 and dies with it halted
  ocd_args 'targets warpscope.hart0' 'halt' 'echo "state0=[warpscope.hart0 curstate]"' 'sleep 60000'
  openocd "${args[@]}" > "$work/ocd.out" 2>&1 &
  opid=$!
  for _ in $(seq 300); do has "$work/ocd.out" "^state0=" && break; sleep 0.1; done
  check "OpenOCD halted hart 0" has "$work/ocd.out" "^state0=halted"
  kill -9 "$opid"; wait "$opid" 2>/dev/null; opid=
  # 4. the device still answers a probe: it opens the gate
  ocd "$work/ocd2.out" "mww $go 0x600d" "mdw $go 1" 'shutdown'
  check "the last probe wrote the gate" has "$work/ocd2.out" "^$go: 0000600d"
  wait "$apid"; rc=$?; apid=
  e=$work/app.err
  check "garbage named" has "$e" "bad input from the probe after 4 bytes: byte 0x78 \('x'\) at offset 4 is not a remote_bitbang command"
  check "mid-scan disconnect named" has "$e" "the probe disconnected in the middle of a scan \(TAP in Shift-DR\)"
  # four probes, four releases; the third (OpenOCD, killed) hung up
  check "four probes released" test "$(grep -c 'debug hardware released$' "$e")" -eq 4
  check "killed probe noticed" has <(grep 'debug hardware released$' "$e" | sed -n 3p) "JTAG: the probe disconnected"
  check "program exit status 0" test "$rc" -eq 0
  check "the last probe opened the gate" has "$work/app.out" "^go=0x0000600d after [0-9]+ spins"
  check "results correct" has "$work/app.out" "^result ok"
fi
if [ $failn -ne 0 ]; then
  echo "--- OpenOCD"; tail -40 "$work/ocd.out" 2>/dev/null; [ -f "$work/ocd2.out" ] && tail -20 "$work/ocd2.out"; echo "--- program"; tail -n 20 "$work/app.out" "$work/app.err"
fi
echo "$pass passed, $failn failed"
[ $failn -eq 0 ]
