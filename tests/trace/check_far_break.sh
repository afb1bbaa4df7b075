#!/bin/bash
# Breakpoints on the branch and on the jal of a far-branch triple (hint,
# inverted branch, jal: written by the rewriter where a branch no longer
# reaches; the device runs the three as one branch, docs/device.md). A
# hardware breakpoint (an execute trigger) there never fired: the device
# fetched only the hint's address. Now it fires each time the instruction
# runs, as a software breakpoint does: on a single-lane launch whose loop
# turns 3 times, the loop's closing branch 3 times, its jal (taken back to
# the head) 2 times; and the program's results are those of a run without
# the debugger.
#   check_far_break.sh WARPSCOPE far_kernel.elf WORKDIR
set -u
ws=$1 elf=$2 work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
"$ws" instrument --record "$elf" -o rec.elf > /dev/null || exit 1
hint=$("$ws" disasm rec.elf | awk '/<far_loop>:/,/^$/' | grep '6b21a013' | tail -1 | awk '{print $1}' | tr -d ':')
[ -n "$hint" ] || { echo "FAIL: no far-branch triple in far_loop"; exit 1; }
branch=$(printf '%x' $((0x$hint + 4))) jump=$(printf '%x' $((0x$hint + 8)))
"$ws" disasm rec.elf | grep -E "^ *($hint|$branch|$jump):"
"$ws" run --grid 1 --block 1 rec.elf far_loop zeros:128 3 > plain.out 2>&1 || exit 1
want=$(grep '^arg 1:' plain.out)
fail=0
for kind in hbreak break; do
  for at in $branch $jump; do
    expect=3; [ $at = $jump ] && expect=2
    rm -f port
    timeout 60 "$ws" debug --stop-at-launch --port-file port -- "$ws" run --grid 1 --block 1 rec.elf far_loop zeros:128 3 > app.out 2>&1 &
    app=$!
    for _ in $(seq 300); do [ -s port ] && break; sleep 0.1; done
    timeout 60 gdb-multiarch -nx -batch -ex 'set pagination off' -ex "target remote 127.0.0.1:$(cat port)" \
      -ex continue -ex "$kind *0x$at" -ex continue -ex continue -ex continue -ex continue -ex continue rec.elf > gdb.out 2>&1
    wait $app
    hits=$(grep -c "hit .*Breakpoint 1, 0x0*$at " gdb.out)
    echo "$kind *0x$at: $hits hits (expected $expect)"
    if [ "$hits" != $expect ] || ! grep -q 'exited normally' gdb.out || [ "$(grep '^arg 1:' app.out)" != "$want" ]; then
      echo "FAIL: $kind *0x$at"; cat gdb.out app.out; fail=1
    fi
  done
done
exit $fail
