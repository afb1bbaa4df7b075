#!/usr/bin/env bash
# The debugger at scale, measured with stock gdb-multiarch (issue 17 items
# 5, 7, 8); gdb's own clock (its Python) times each command, so gdb's
# start-up and the module transfer are not counted. Prints one line per
# figure, "name: seconds", and the ratios. docs/performance.md has results.
#   bench/debug_scale/run.sh [BUILD_DIR]     (default: build-bench, Release)
#   BENCH_REPS=N   repetitions per figure (best is reported; default 3)
#   BENCH_LANES="1024 4096 10240"   resident lanes for `info threads`
#   BENCH_ONLY_THREADS=1   only `info threads` / `thread apply all`
#   BENCH_VIEWS="lane warp"   gdb threads per lane, per warp (threads=warp)
#   BENCH_ONLY_STEPI=1     only the stepi latency
#   BENCH_TRANSPORT=tcp|unix   how gdb reaches the server: loopback TCP
#                  (default) or a Unix-domain socket (WARPSCOPE_DEBUG
#                  socket=PATH, gdb `target remote PATH`)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench}
if [ -z "${1:-}" ]; then
  "$root/scripts/bootstrap.sh" >/dev/null
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j"$(nproc)" --target ws_debug_scale_app >/dev/null
fi
app=$build/bench/debug_scale/ws_debug_scale_app
elf=$build/bench/debug_scale/scale_kernels.elf
src=$root/bench/debug_scale/scale_kernels.c
reps=${BENCH_REPS:-3}
transport=${BENCH_TRANSPORT:-tcp}
case $transport in tcp|unix) ;; *) echo "BENCH_TRANSPORT: tcp or unix, not $transport"; exit 1 ;; esac
echo "transport: $transport"
line_of() { grep -n "BREAK:$1" "$src" | cut -d: -f1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# session DEBUG_OPTS APP_ARGS... -- GDB_COMMANDS...: one program under gdb;
# gdb's output goes to $work/gdb.out, the program's to $work/app.out.
session() {
  local opts=$1; shift
  local appargs=()
  while [ "$1" != -- ]; do appargs+=("$1"); shift; done; shift
  rm -f "$work/port"
  local listen=port=0
  [ "$transport" = unix ] && listen="socket=$work/gdb.sock"
  WARPSCOPE_DEBUG="$listen,port-file=$work/port,connect-timeout=30000${opts:+,$opts}" \
    timeout 300 "$app" "${appargs[@]}" "$elf" > "$work/app.out" 2>&1 &
  local apid=$!
  for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.05; done
  # "target remote :PORT" in the commands: the port, or the socket's path
  local tgt=":$(cat "$work/port")"
  [ "$transport" = unix ] && tgt=$(cat "$work/port")
  local args=(-nx -ex "set pagination off" -ex "set confirm off" -ex "python import time")
  if [ -z "${PACED:-}" ]; then
    for c in "$@"; do args+=(-ex "$c"); done
    timeout 300 gdb-multiarch -batch "${args[@]/:PORT/$tgt}" > "$work/gdb.out" 2>&1 || true
  else
    # as typed at a prompt: each command once gdb's output has been quiet
    # for a second, so gdb handles the stop events in between (non-stop:
    # a warp's halt is a stop per lane; under -batch they would still be
    # queued and answer the next stepi)
    local c
    : > "$work/gdb.out"
    { for c in "$@"; do quiet; printf '%s\n' "${c/:PORT/$tgt}"; done; quiet; echo quit; } |
      timeout 300 gdb-multiarch "${args[@]}" > "$work/gdb.out" 2>&1 || true
  fi
  wait "$apid" || { echo "the program failed:"; cat "$work/app.out" "$work/gdb.out"; exit 1; }
  grep -q "result ok" "$work/app.out" || { echo "wrong results:"; cat "$work/app.out"; exit 1; }
}
# quiet: wait until gdb's output has not grown for a second
quiet() {
  local last=-1 cur n=0
  while [ "$n" -lt 10 ]; do
    sleep 0.1; cur=$(stat -c %s "$work/gdb.out")
    if [ "$cur" = "$last" ]; then n=$((n + 1)); else n=0; last=$cur; fi
  done
}
# best NAME: the smallest value gdb printed as "BENCH NAME VALUE" over reps
best() { sort -g | head -1; }
value() { sed -n "s/^\(([a-z]*) \)*BENCH $1 //p" "$work/gdb.out"; }

tic='python t0 = time.time(); c0 = time.process_time()'
# toc NAME: prints "BENCH NAME wall" and "BENCH NAME_cpu gdb's own CPU"
toc() { echo "python print('BENCH $1 %.4f\nBENCH $1_cpu %.4f' % (time.time() - t0, time.process_time() - c0))"; }

grid_line=$(line_of grid)
loop_line=$(line_of loop)
if [ -z "${BENCH_ONLY_STEPI:-}" ] && [ -z "${BENCH_ONLY_THREADS:-}" ]; then
# ---- item 8: a conditional breakpoint on a late block (grid 4096 x 32) ----
for variant in none hardware server; do
  for _ in $(seq "$reps"); do
    case $variant in
      none) session "" grid 4096 32 -- "target remote :PORT" "$tic" continue "$(toc run)" ;;
      *) opts=""; [ "$variant" = server ] && opts=conditions=server
         session "$opts" grid 4096 32 -- "target remote :PORT" "set breakpoint pending on" \
           "break scale_kernels.c:$grid_line if \$block_x == 4000" "$tic" continue "$(toc stop)" \
           'printf "at %d %d\n", $block_x, $thread_x' delete continue "$(toc run)"
         grep -q "^at 4000 0$" "$work/gdb.out" || { echo "did not stop at block 4000:"; cat "$work/gdb.out"; exit 1; } ;;
    esac
    value run >> "$work/cond_$variant"
  done
  printf 'cond_break_%s_run_s: %s\n' "$variant" "$(best < "$work/cond_$variant")"
done
none=$(best < "$work/cond_none")
for v in hardware server; do
  awk -v a="$(best < "$work/cond_$v")" -v b="$none" -v n="$v" 'BEGIN { printf "cond_break_%s_over_none: %.2f\n", n, a / b }'
done

fi
if [ -z "${BENCH_ONLY_STEPI:-}" ]; then
# ---- item 7: info threads / thread apply all over every resident lane ----
# threads=lane: a gdb thread per lane (the default); threads=warp: a gdb
# thread per warp, shown through its focus lane (32 lanes a warp here)
for view in ${BENCH_VIEWS:-lane warp}; do
for lanes in ${BENCH_LANES:-1024 4096 10240}; do
  cores=$((lanes / 256))
  rm -f "$work/it" "$work/ta" "$work/itc" "$work/tac" "$work/ml" "$work/mw"
  want=$lanes; [ "$view" = warp ] && want=$((lanes / 32))
  for _ in $(seq "$reps"); do
    session "threads=$view" resident "$cores" 8 -- "target remote :PORT" "set breakpoint pending on" \
      "break scale_kernels.c:$loop_line if \$block_x == 0 && \$thread_x == 0" continue delete \
      "$tic" "info threads" "$(toc info_threads)" "$tic" "thread apply all print \$pc" "$(toc apply_all)" \
      "$tic" "monitor lanes" "$(toc monitor_lanes)" "$tic" "monitor warps" "$(toc monitor_warps)" \
      'python print("BENCH threads %d" % len(gdb.selected_inferior().threads()))' continue
    value info_threads >> "$work/it"
    value apply_all >> "$work/ta"
    value info_threads_cpu >> "$work/itc"
    value apply_all_cpu >> "$work/tac"
    value monitor_lanes >> "$work/ml"
    value monitor_warps >> "$work/mw"
    [ "$(grep -c '^  Thread [0-9]*: block' "$work/gdb.out")" = "$lanes" ] || { echo "monitor lanes did not list $lanes lanes"; exit 1; }
    [ "$(value threads)" = "$want" ] || { echo "gdb saw $(value threads) threads, not $want"; exit 1; }
  done
  tag=; [ "$view" = warp ] && tag=warp_view_
  printf 'info_threads_%s%s_lanes_s: %s\n' "$tag" "$lanes" "$(best < "$work/it")"
  printf 'thread_apply_all_%s%s_lanes_s: %s\n' "$tag" "$lanes" "$(best < "$work/ta")"
  printf 'info_threads_%s%s_lanes_gdb_cpu_s: %s\n' "$tag" "$lanes" "$(best < "$work/itc")"
  printf 'thread_apply_all_%s%s_lanes_gdb_cpu_s: %s\n' "$tag" "$lanes" "$(best < "$work/tac")"
  printf 'monitor_lanes_%s%s_lanes_s: %s\n' "$tag" "$lanes" "$(best < "$work/ml")"
  printf 'monitor_warps_%s%s_lanes_s: %s\n' "$tag" "$lanes" "$(best < "$work/mw")"
done
done

fi
if [ -z "${BENCH_ONLY_THREADS:-}" ]; then
# ---- item 5: stepi latency, all-stop and non-stop (100 steps) ----
for mode in all-stop non-stop; do
  rm -f "$work/st"
  pre="set non-stop off"; [ "$mode" = non-stop ] && pre="set non-stop on"
  # non-stop: commands as typed at a prompt (see session); BENCH_PACE_ALL=1
  # does the same for all-stop, to compare like with like
  paced=; [ "$mode" = non-stop ] && paced=1; [ -n "${BENCH_PACE_ALL:-}" ] && paced=1
  for _ in $(seq "$reps"); do
    PACED=$paced session "" resident 2 4 -- "$pre" "target remote :PORT" "set breakpoint pending on" \
      "break scale_kernels.c:$loop_line if \$block_x == 0 && \$thread_x == 0" continue delete \
      "python gdb.execute('thread %d' % next(t.num for t in gdb.selected_inferior().threads() if t.name and t.name.startswith('block (0,0,0) thread (0,0,0)')))" \
      "python t0 = time.time(); [gdb.execute('stepi', to_string=True) for _ in range(100)]; print('BENCH steps %.4f' % (time.time() - t0))" \
      "$( [ "$mode" = non-stop ] && echo 'continue -a' || echo continue )"
    # gdb.execute raises on a failed stepi (the figure is printed by the
    # same command, timed there: paced commands come a second apart): no
    # figure then
    [ -n "$(value steps)" ] || { echo "stepi failed ($mode):"; cat "$work/gdb.out"; exit 1; }
    value steps >> "$work/st"
  done
  awk -v s="$(best < "$work/st")" -v m="$mode" 'BEGIN { printf "stepi_%s_ms: %.2f\n", m, s * 10 }'
done
fi
