# Shared by the OpenOCD end-to-end scripts (sourced): their work directory
# and clean-up, the check counters and matchers, starting jtag_app and
# waiting for it to listen and start its kernel, and the OpenOCD command
# gdb runs through a pipe.

# A work directory ($work) removed on exit, and the background programs
# (jtag_app's pid in apid; openocd's in opid, where a script starts one)
# killed if the script ends before they do.
work=$(mktemp -d)
apid= opid=
cleanup() { [ -n "$apid" ] && kill "$apid" 2>/dev/null; [ -n "$opid" ] && kill -9 "$opid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
pass=0 failn=0
check() { # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then pass=$((pass + 1)); else failn=$((failn + 1)); echo "FAIL: $what"; fi
}
has() { grep -qE -- "$2" "$1"; }
hasnt() { ! grep -qE -- "$2" "$1"; }

# wait_for_app: jtag_app (started in the background with its output in
# $work/app.out and $work/app.err) listens and its kernel runs; sets port,
# go, pat and out from what it printed, or fails the script.
wait_for_app() { # up to 30 s: a loaded host may be slow to start it
  for _ in $(seq 300); do [ -s "$work/port" ] && has "$work/app.out" launching && break; sleep 0.1; done
  if ! [ -s "$work/port" ]; then echo "FAIL: the program never listened"; cat "$work/app.err"; exit 1; fi
  if ! has "$work/app.out" launching; then echo "FAIL: the program never launched"; cat "$work/app.out" "$work/app.err"; exit 1; fi
  port=$(cat "$work/port")
  go=$(sed -n 's/^go at //p' "$work/app.out")
  pat=$(sed -n 's/^pattern at //p' "$work/app.out")
  out=$(sed -n 's/^out at //p' "$work/app.out")
  sleep 0.5 # the kernel is running: its lanes are harts with live threads
}

# start_app APP KELF [SETTINGS]: jtag_app in the background (pid in apid;
# SETTINGS go before the port in WARPSCOPE_JTAG), its kernel spinning
# for up to 6 000 000 turns, then wait_for_app.
start_app() {
  WARPSCOPE_JTAG="${3:+$3,}port=0,port-file=$work/port" timeout 100 "$1" "$2" 6000000 2000 \
    > "$work/app.out" 2> "$work/app.err" &
  apid=$!
  wait_for_app
}

# ocd_pipe CFG HARTS [EXTRA]: the openocd command for gdb's
# `target extended-remote | ...`, on the harts HARTS, log in $work/ocd.log.
ocd_pipe() {
  echo "openocd -c \"set WARPSCOPE_PORT $port\" -c \"set WARPSCOPE_HARTS {$2}\" ${3-} -f \"$1\"" \
    "-c \"gdb_port pipe\" -c \"log_output $work/ocd.log\" -c \"tcl_port disabled\" -c \"telnet_port disabled\""
}
