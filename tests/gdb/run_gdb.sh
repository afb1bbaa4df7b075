#!/bin/bash
# One gdb end-to-end scenario: start gdb_app under WARPSCOPE_DEBUG, drive
# gdb-multiarch in batch mode with the scenario's commands, then check
# the scenario's expectations against gdb's and the application's output.
#   run_gdb.sh GDB_APP KERNELS.elf DYN.elf SRCDIR SCENARIO.gdb [WARPSCOPE]
# A scenario file holds gdb commands, one per line (each passed with -ex,
# so one failing command does not skip the rest), and directives:
#   # mode: M            gdb_app mode (basic, oob, dynamic, nonstop)
#   # pre: CMD           a gdb command run before connecting (set non-stop on)
#   # via-cli: yes        start the program with `warpscope debug` (6th argument)
#   # cli-opts: OPTS      options for `warpscope debug` (--stop-at-launch)
#   # debug-opts: OPTS    more WARPSCOPE_DEBUG settings (stop-at-launch=1)
#   # transport: unix     serve on a Unix-domain socket (socket=PATH, or
#                         with via-cli `warpscope debug --socket PATH`) and
#                         connect gdb to it; a stale socket file is left at
#                         PATH first, a second program asking for PATH must
#                         be refused, and the file must be gone at the end
#   # pace: SECONDS      feed the commands on gdb's standard input, each
#                         once gdb has answered the one before (a marker it
#                         echoes) and its output has then been quiet for
#                         SECONDS (tenths allowed), instead of -batch -ex:
#                         non-stop stop events are then handled between
#                         commands, as at an interactive prompt
#   # env: NAME=VALUE     more environment for the application (@WORK@ is
#                         the scenario's scratch directory)
#   # expect-gdb: RE     gdb's output must match RE (grep -E)
#   # reject-gdb: RE     ... must not match RE
#   # expect-app: RE     the application's output must match RE
#   # reject-app: RE     ... must not match RE
#   # expect-exit: N     the application's exit status
# @MARK_name@ becomes the line of "MARK:name" in the kernel sources, @ROOT@
# the source tree's root, @KERNELS@ the kernels' module (KERNELS.elf).
# WS_GDB_THREADS=warp in the environment runs the scenario with gdb
# threads that are warps (threads=warp / --threads warp).
set -u
app=$1 kelf=$2 dyn=$3 srcdir=$4 scenario=$5 cli=${6:-}
work=$(mktemp -d)
apid=
cleanup() { [ -n "$apid" ] && kill "$apid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

marks=()
for f in "$srcdir/gdb_kernels.c" "$srcdir/gdb_dyn_kernel.c"; do
  while IFS=: read -r line rest; do
    name=$(sed -n 's/.*MARK:\([a-z_]*\).*/\1/p' <<<"$rest")
    marks+=(-e "s/@MARK_${name}@/${line}/g")
  done < <(grep -n 'MARK:' "$f")
done
root=$(cd "$srcdir/../.." && pwd)
sed "${marks[@]}" -e "s|@ROOT@|$root|g" -e "s|@KERNELS@|$kelf|g" "$scenario" > "$work/scenario"
mode=$(sed -n 's/^# mode: *//p' "$work/scenario")
transport=$(sed -n 's/^# transport: *//p' "$work/scenario")
while IFS= read -r kv; do export "${kv//@WORK@/$work}"; done < <(sed -n 's/^# env: *//p' "$work/scenario")

if [ "$transport" = unix ]; then
  # a socket file left by an earlier run (that program is gone): replaced
  python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$work/gdb.sock" ||
    { echo "FAIL: cannot make a stale socket file"; exit 1; }
fi
if grep -q '^# via-cli: yes' "$work/scenario"; then
  clio=$(sed -n 's/^# cli-opts: *//p' "$work/scenario")
  [ "$transport" = unix ] && clio="$clio --socket $work/gdb.sock"
  [ -n "${WS_GDB_THREADS:-}" ] && clio="$clio --threads $WS_GDB_THREADS"
  timeout ${WS_GDB_TEST_TIMEOUT:-90} "$cli" debug $clio --port-file "$work/port" -- \
    "$app" "$mode" "$kelf" "$dyn" > "$work/app.out" 2>&1 &
else
  opts=$(sed -n 's/^# debug-opts: *//p' "$work/scenario")
  [ -n "${WS_GDB_THREADS:-}" ] && opts="${opts:+$opts,}threads=$WS_GDB_THREADS"
  listen=port=0
  [ "$transport" = unix ] && listen="socket=$work/gdb.sock"
  WARPSCOPE_DEBUG="$listen,port-file=$work/port,connect-timeout=30000${opts:+,$opts}" \
    timeout ${WS_GDB_TEST_TIMEOUT:-90} "$app" "$mode" "$kelf" "$dyn" > "$work/app.out" 2>&1 &
fi
apid=$!
for _ in $(seq 300); do [ -s "$work/port" ] && break; kill -0 "$apid" 2>/dev/null || break; sleep 0.1; done
if [ ! -s "$work/port" ]; then
  echo "FAIL: the application never listened"; cat "$work/app.out"; exit 1
fi
port=$(cat "$work/port")
target="127.0.0.1:$port"
if [ "$transport" = unix ]; then
  # port-file holds the socket's path; gdb takes a path for a local socket
  [ "$port" = "$work/gdb.sock" ] || { echo "FAIL: port-file holds '$port', not the socket path"; exit 1; }
  target=$port
  # a second program asking for the same path is turned away (the live
  # server keeps its socket and is not disturbed: gdb connects next)
  WARPSCOPE_DEBUG="socket=$port,connect-timeout=1000" timeout 20 "$app" "$mode" "$kelf" "$dyn" > "$work/app2.out" 2>&1
  grep -q "gdb\.sock is in use by another server" "$work/app2.out" ||
    { echo "FAIL: a second server on the same socket:"; cat "$work/app2.out"; exit 1; }
fi

pace=$(sed -n 's/^# pace: *//p' "$work/scenario")
# width 0: paced sessions (not -batch) would wrap lines at 80 columns, so
# an expectation could fail by how long the checkout's path is
args=(-nx -ex "set pagination off" -ex "set confirm off" -ex "set width 0")
[ -n "$pace" ] || args=(-batch "${args[@]}")
while IFS= read -r pre; do args+=(-ex "$pre"); done < <(sed -n 's/^# pre: *//p' "$work/scenario")
args+=(-ex "target remote $target")
cmds=()
while IFS= read -r l; do
  case "$l" in ''|'#'*) continue ;; esac
  cmds+=("$l")
done < "$work/scenario"
if [ -n "$pace" ]; then
  # typed as at a prompt, each line once gdb's output has been quiet for
  # $pace seconds: gdb's event loop handles the stop events between
  # commands (in -batch, events still queued wait for the next command
  # that resumes)
  : > "$work/gdb.out"
  # settle K: gdb has printed marker K (so it has read and run every
  # command before it), then nothing for $pace seconds (stop events that
  # arrive after a command returns)
  settle() {
    local last=-1 cur quiet=0 waited=0
    while ! grep -q "@SYNC_$1@" "$work/gdb.out" && [ "$waited" -lt 600 ]; do
      sleep 0.05; waited=$((waited + 1))
    done
    while [ "$quiet" -lt "$pace" ]; do
      sleep 0.1; cur=$(stat -c %s "$work/gdb.out")
      if [ "$cur" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; last=$cur; fi
    done
  }
  pace=$(awk -v s="$pace" 'BEGIN { printf "%d", s * 10 + 0.5 }') # in tenths
  k=0
  { for c in "${cmds[@]}"; do
      printf 'echo @SYNC_%d@\\n\n' "$k"; settle "$k"; k=$((k + 1)); printf '%s\n' "$c"
    done
    printf 'echo @SYNC_%d@\\n\n' "$k"; settle "$k"; echo quit; } |
    timeout ${WS_GDB_TEST_TIMEOUT:-90} gdb-multiarch "${args[@]}" > "$work/gdb.out" 2>&1
else
  for c in "${cmds[@]}"; do args+=(-ex "$c"); done
  timeout ${WS_GDB_TEST_TIMEOUT:-90} gdb-multiarch "${args[@]}" > "$work/gdb.out" 2>&1
fi
gdb_rc=$?
wait "$apid"; app_rc=$?; apid=

echo "---- gdb (exit $gdb_rc) ----"; cat "$work/gdb.out"
echo "---- application (exit $app_rc) ----"; cat "$work/app.out"
fails=0
while IFS= read -r l; do
  case "$l" in
    '# expect-gdb: '*) re=${l#\# expect-gdb: }
      grep -Eq -- "$re" "$work/gdb.out" || { echo "FAIL: gdb output lacks: $re"; fails=$((fails+1)); } ;;
    '# reject-gdb: '*) re=${l#\# reject-gdb: }
      grep -Eq -- "$re" "$work/gdb.out" && { echo "FAIL: gdb output has: $re"; fails=$((fails+1)); } ;;
    '# expect-app: '*) re=${l#\# expect-app: }
      grep -Eq -- "$re" "$work/app.out" || { echo "FAIL: application output lacks: $re"; fails=$((fails+1)); } ;;
    '# reject-app: '*) re=${l#\# reject-app: }
      grep -Eq -- "$re" "$work/app.out" && { echo "FAIL: application output has: $re"; fails=$((fails+1)); } ;;
    '# expect-exit: '*) want=${l#\# expect-exit: }
      [ "$app_rc" = "$want" ] || { echo "FAIL: application exit $app_rc, expected $want"; fails=$((fails+1)); } ;;
  esac
done < "$work/scenario"
[ "$gdb_rc" = 124 ] && { echo "FAIL: gdb timed out"; fails=$((fails+1)); }
if [ "$transport" = unix ] && [ -e "$work/gdb.sock" ]; then
  echo "FAIL: the socket file is still there after the program ended"; fails=$((fails+1))
fi
echo "$fails failed"
[ "$fails" = 0 ]
