#!/usr/bin/env bash
# usage: check_run_interrupt.sh WARPSCOPE FAULT_KERNELS.elf WORKDIR
# Ctrl-C (SIGINT) in `warpscope run` of a kernel that spins for ever ends
# the launch and says where its warps are (the kernel's line), exit status
# 130 as a shell gives an interrupted command; on one host thread and two,
# and in timing mode. Until 2026-11-29 the command died with nothing said.
set -u
ws=$1 elf=$2 dir=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
for cfg in threads=1 threads=2 mode=timing; do
    "$ws" run --config "$cfg" --grid 4 --block 64 "$elf" spin_forever zeros:16 > out.txt 2>&1 &
    pid=$!
    sleep 0.5
    kill -INT "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        bad "$cfg: still running 10 s after SIGINT"
    fi
    wait "$pid"
    rc=$?
    [ "$rc" = 130 ] && ok "$cfg: exit status 130" || bad "$cfg: exit status $rc"
    grep -q "^warpscope run: interrupted: the host asked it to end (0 blocks of 4 done.*the first still running: block (0,0,0) thread (0,0,0) .* at .*fault_kernels.c:53 in spin_forever, kernel 'spin_forever'" out.txt &&
        ok "$cfg: where it spins" || bad "$cfg: $(cat out.txt)"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
