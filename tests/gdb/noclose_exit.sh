#!/bin/bash
# `warpscope debug` running a program (linked with the shared library)
# that returns 3 from main without closing its device: the exit closer
# the command preloads closes it, so gdb hears the end with the program's
# status ("exited with code 03"; until 2026-11-27 "exited normally")
# instead of losing the connection with the process ("Remote connection
# closed"), and the command exits 3.
# With "static", the same program linked with the static library, which
# no preloaded closer reaches: the command says so before the program
# runs (until 2026-11-27 it said nothing), gdb loses the connection as it
# was told, and the command still exits 3.
# With "close3" (either library), the program closes its device itself
# and then returns 3: the server passes gdb's connection to the command,
# which tells gdb the status once it has reaped the program (until
# 2026-11-28 gdb heard "exited normally" at the close).
# With "stripped", the static one stripped of its symbol tables: the
# command knows it by the library's ELF note (until 2026-11-28 it said
# nothing) and says the same.
# With "closeabort", it closes its device and then aborts: gdb hears the
# signal, the command exits 134.
# With "closeinterrupt", it closes its device and runs on for 3 s before
# it returns 3; gdb is interrupted (SIGINT, as Ctrl-C) in that time: the
# command answers that the program runs on past its device (until
# 2026-11-28 the interrupt got no answer until the program exited), and
# gdb still hears the exit status.
#   noclose_exit.sh WARPSCOPE JTAG_APP KERNELS.elf [shared|static|stripped|close3|closeabort|closeinterrupt]
set -u
cli=$1 app=$2 kelf=$3 mode=${4:-shared}
ending=noclose want_rc=3 want_gdb="exited with code 03\]"
case "$mode" in
  close3) ending=close3 ;;
  closeabort) ending=closeabort want_rc=134 want_gdb="terminated with signal SIGABRT" ;;
  closeinterrupt) ending=closelinger ;;
esac
work=$(mktemp -d)
fails=0
if [ "$mode" = stripped ]; then
    cp "$app" "$work/app.stripped" && strip "$work/app.stripped" || { echo "FAIL: cannot strip a copy"; exit 1; }
    readelf -s "$work/app.stripped" | grep -q ws_device_open && { echo "FAIL: the copy still names ws_device_open"; exit 1; }
    app=$work/app.stripped mode=static
fi
apid=
cleanup() { [ -n "$apid" ] && kill "$apid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
# the gate kernel gives up after 2000 spins; no hold; then return 3
timeout 60 "$cli" debug --port-file "$work/port" -- "$app" "$kelf" 2000 0 "$ending" > "$work/app.out" 2> "$work/app.err" &
apid=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || { echo "FAIL: the program never listened"; cat "$work/app.err"; exit 1; }
timeout --foreground 60 gdb-multiarch -q -batch -ex "target remote 127.0.0.1:$(cat "$work/port")" -ex continue > "$work/gdb.out" 2>&1 &
gpid=$!
if [ "$mode" = closeinterrupt ]; then
    for _ in $(seq 300); do grep -q "device closed" "$work/app.out" && break; sleep 0.1; done
    kill -INT "$gpid" # timeout passes it on to gdb (--foreground: to gdb only, once)
fi
wait "$gpid"
wait "$apid"; rc=$?; apid=
if [ "$mode" = closeinterrupt ]; then
    grep -q "closed its device and runs on in the host" "$work/gdb.out" ||
        { echo "FAIL: the interrupt got no answer"; fails=$((fails+1)); }
fi
note="warpscope debug: note: $app has libwarpscope linked in (the static library), which the exit closer cannot reach"
if [ "$mode" = static ]; then
    # the note comes first, before the program's own server says it listens
    head -n 1 "$work/app.err" | grep -qF "$note" || { echo "FAIL: no note first that the closer cannot reach the program"; fails=$((fails+1)); }
    grep -q "Remote connection closed" "$work/gdb.out" || { echo "FAIL: gdb did not lose the connection as the note says"; fails=$((fails+1)); }
else
    grep -q "$want_gdb" "$work/gdb.out" || { echo "FAIL: gdb did not hear the program's end ($want_gdb)"; fails=$((fails+1)); }
    grep -q "Remote connection closed" "$work/gdb.out" && { echo "FAIL: the server died with the process"; fails=$((fails+1)); }
    [ "$ending" != noclose ] || ! grep -qF "note:" "$work/app.err" || { echo "FAIL: a note about the static library for a program linked with the shared one"; fails=$((fails+1)); }
fi
# the command says where it listens once, on stdout, as its first line;
# the program's library says nothing more on stderr (until 2026-11-28 it
# did: "warpscope: gdb server listening on ...")
[ "$(head -n 1 "$work/app.out")" = "listening on 127.0.0.1:$(cat "$work/port")" ] ||
    { echo "FAIL: the first line of stdout is not the listening line"; fails=$((fails+1)); }
[ "$(grep -c listening "$work/app.out" "$work/app.err" | awk -F: '{ n += $2 } END { print n }')" = 1 ] ||
    { echo "FAIL: the listening line is not said exactly once"; fails=$((fails+1)); }
grep -q "^result ok" "$work/app.out" || { echo "FAIL: the program's results"; fails=$((fails+1)); }
[ "$rc" -eq "$want_rc" ] || { echo "FAIL: exit status $rc, not the program's $want_rc"; fails=$((fails+1)); }
if [ $fails -ne 0 ]; then echo "--- gdb"; cat "$work/gdb.out"; echo "--- program"; cat "$work/app.out" "$work/app.err"; fi
[ $fails -eq 0 ]
