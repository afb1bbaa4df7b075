#!/bin/bash
# A program with racing atomics between blocks (tests/capture/racing.c),
# captured and replayed on several host threads: capture and replay run
# the launches on one thread (docs/parallel.md), so every pass is
# bit-identical to the captured frame. (Before, both used the device's
# threads: the capture recorded one interleaving and each pass replayed
# another: "results differ".)
#   racing_replay.sh WARPSCOPE PROGRAM KERNEL.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
for threads in 2 4; do
  f="$work/racing$threads.wscap"
  WARPSCOPE_THREADS=$threads "$ws" capture -o "$f" --frames all -- "$prog" "$elf" > "$work/capture.out" 2>&1 ||
    { cat "$work/capture.out"; echo "FAIL: capture on $threads threads"; fails=$((fails+1)); continue; }
  for replay_threads in 1 $threads; do
    if WARPSCOPE_THREADS=$replay_threads "$ws" replay --loop 5 "$f" > "$work/replay.out" 2>&1 &&
       grep -q "5 passes of .* every pass bit-identical" "$work/replay.out"; then
      echo "captured on $threads threads, replayed on $replay_threads: $(tail -1 "$work/replay.out")"
    else
      tail -4 "$work/replay.out"
      echo "FAIL: captured on $threads threads, replayed on $replay_threads"; fails=$((fails+1))
    fi
  done
done
echo "$fails failed"
[ "$fails" = 0 ]
