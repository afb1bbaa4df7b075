#!/bin/bash
# One gdb at a time, and attach / detach / attach again (issue 17 item 6):
# gdb 1 stops in the first launch; a second gdb connecting meanwhile is
# refused at once with a clear message; gdb 1 detaches and the program runs
# on (it then waits for a flag file); gdb 3 attaches to the running
# program, sets a breakpoint, lets it go on, stops in the second launch,
# and the program ends with the right results.
#   reattach_test.sh GDB_APP KERNELS.elf SRCDIR [tcp|unix]   (unix: the server on
#   a Unix-domain socket, WARPSCOPE_DEBUG socket=PATH; the file must go at the end)
# WS_GDB_THREADS=warp in the environment: the server with threads=warp.
set -u
app=$1 kelf=$2 srcdir=$3 transport=${4:-tcp} # tcp, or unix: WARPSCOPE_DEBUG socket=PATH
work=$(mktemp -d)
apid=
cleanup() { [ -n "$apid" ] && kill "$apid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
mark() { grep -n "MARK:$1" "$srcdir/gdb_kernels.c" | cut -d: -f1; }
G=(gdb-multiarch -batch -nx -ex "set pagination off" -ex "set confirm off")

listen=port=0
[ "$transport" = unix ] && listen="socket=$work/gdb.sock"
WARPSCOPE_DEBUG="$listen,port-file=$work/port,connect-timeout=30000${WS_GDB_THREADS:+,threads=$WS_GDB_THREADS}" \
  timeout 90 "$app" wait "$kelf" "$work/flag" > "$work/app.out" 2>&1 &
apid=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
target=127.0.0.1:$port
[ "$transport" = unix ] && target=$port # port-file holds the socket's path

# gdb 2 is started by gdb 1 (shell) while gdb 1 holds the program stopped
cat > "$work/second.sh" <<EOS
timeout 20 gdb-multiarch -batch -nx -ex "target remote $target" -ex "info threads" > "$work/gdb2.out" 2>&1
echo "gdb2 exit \$?" >> "$work/gdb2.out"
EOS
# a client that connects and then sends noise (not gdb: a stuck tool) is
# refused beside the session: gdb 1 is not kept waiting the 2.5 s the
# refusal may take (it was: the refusal ran on the session's thread; with
# the first byte after 0.45 s, then one every 0.19 s, it held the session
# about 2.3 s).
# The knock is connected when the measured commands start (knock.sh
# waits for it, then no longer: the refusal must overlap them): a python
# started on a busy machine connected late, so its start-up was measured
# as a stall, or, after gdb 1 detached, it was served as the next session
# and gdb 3 was refused.
if [ "$transport" = unix ]; then
  connect="s=socket.socket(socket.AF_UNIX); s.connect(\"$port\")"
else
  connect="s=socket.create_connection((\"127.0.0.1\", $port))"
fi
knock="python3 -c 'import socket,time; $connect; open(\"$work/knocked\", \"w\").close(); time.sleep(0.45); [(s.send(b\"x\"), time.sleep(0.19)) for _ in range(16)]'"
cat > "$work/knock.sh" <<EOS
$knock 2> /dev/null &
for _ in \$(seq 600); do [ -e "$work/knocked" ] && break; sleep 0.05; done
date +%s%N > "$work/t0"
EOS
timeout 60 "${G[@]}" -ex "target remote $target" -ex "set breakpoint pending on" \
  -ex "break gdb_kernels.c:$(mark store) if \$block_x == 0 && \$thread_x == 4" -ex "continue" \
  -ex "print i" -ex "shell date +%s%N > $work/b0" -ex "info threads" -ex "print i + 1" -ex "shell date +%s%N > $work/b1" \
  -ex "shell bash $work/knock.sh" -ex "info threads" -ex "print i + 1" -ex "shell date +%s%N > $work/t1" \
  -ex "shell bash $work/second.sh" -ex "delete" -ex "detach" > "$work/gdb1.out" 2>&1
# the same two commands without a knock, just before: the difference is the stall (up to 2.3 s
# before the fix; the threshold is well above the 0.4 s a machine with load average 12 adds)
waited_ms=$(( ($(cat "$work/t1") - $(cat "$work/t0") - ($(cat "$work/b1") - $(cat "$work/b0"))) / 1000000 ))
[ "$waited_ms" -lt 800 ] && ok "a noisy client did not stall gdb 1 (${waited_ms} ms more)" ||
  bad "gdb 1 waited ${waited_ms} ms more while a noisy client was refused"
grep -q '^\$1 = 4' "$work/gdb1.out" && ok "gdb 1 stopped in the first launch" || bad "gdb 1: $(cat "$work/gdb1.out")"
grep -q "another gdb is already attached" "$work/gdb2.out" && ok "gdb 2 refused with a clear message" ||
  bad "gdb 2: $(cat "$work/gdb2.out")"
grep -q "gdb2 exit 124" "$work/gdb2.out" && bad "gdb 2 hung until its timeout" || ok "gdb 2 did not hang"
grep -q "Detaching from program\|detached" "$work/gdb1.out" && ok "gdb 1 detached" || bad "gdb 1 did not detach"

for _ in $(seq 100); do grep -q "waiting for" "$work/app.out" && break; sleep 0.1; done
grep -q "waiting for" "$work/app.out" && ok "the program ran on after the detach" || bad "the program did not run on"

timeout 60 "${G[@]}" -ex "target remote $target" -ex "set breakpoint pending on" \
  -ex "break gdb_kernels.c:$(mark after) if \$block_x == 1 && \$thread_x == 2" -ex "shell touch $work/flag" \
  -ex "continue" -ex "print i" -ex "delete" -ex "continue" > "$work/gdb3.out" 2>&1
grep -q '^\$1 = 34' "$work/gdb3.out" && ok "gdb 3 attached again and stopped in the second launch" ||
  bad "gdb 3: $(cat "$work/gdb3.out")"
grep -q "exited normally" "$work/gdb3.out" && ok "gdb 3 saw the program exit" || bad "gdb 3 did not see the exit"
wait "$apid"; rc=$?; apid=
grep -q "result ok" "$work/app.out" && [ $rc -eq 0 ] && ok "results unchanged" || bad "app (exit $rc): $(cat "$work/app.out")"
if [ "$transport" = unix ]; then
  [ -e "$work/gdb.sock" ] && bad "the socket file is still there" || ok "the socket file is gone"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
