#!/bin/bash
# A results check that says DIFFERENT (the instrumented run left global
# memory otherwise than the launch) is said on stderr, and makes
# `warpscope trace --fail-on-different` exit 4; without the switch the
# status stays 0, a MISMATCH (3) and the program's own failure come first.
# Until 2026-11-28 the command exited 0 with nothing on stderr.
# The difference is a genuine one: global_kernel.c's `addresses` stores
# the address of its module's table, which the passes' twin holds
# elsewhere (docs/tracing.md, Limits).
#   check_different_status.sh WARPSCOPE global_kernel.elf cas_kernel.elf
set -u
ws=$1 k=$2 cas=$3
fail=0
expect() { # name, expected status, output file, then the command
    local name=$1 want=$2 out=$3; shift 3
    "$@" > "$out" 2>&1
    local got=$?
    [ "$got" = "$want" ] || { echo "FAIL: $name: exit status $got, expected $want"; cat "$out"; fail=1; }
}
run=(run --grid 1 --block 32 "$k" addresses zeros:32)
expect "DIFFERENT" 0 diff.plain.out "$ws" trace --tool bbcount -- "$ws" "${run[@]}"
grep -q 'DIFFERENT from the launch' diff.plain.out &&
    grep -q "^warpscope trace: the instrumented run's results differ from the launch's in 1 launch (DIFFERENT in the report)$" diff.plain.out ||
    { echo "FAIL: no DIFFERENT line or no message"; cat diff.plain.out; fail=1; }
expect "--fail-on-different" 4 diff.fail.out "$ws" trace --tool memtrace --fail-on-different -- "$ws" "${run[@]}"
# identical results: 0 with the switch too
expect "identical" 0 diff.same.out "$ws" trace --tool bbcount --fail-on-different -- \
    "$ws" run --grid 1 --block 32 "$k" globals zeros:32
grep -q 'identical to the launch' diff.same.out && ! grep -q 'differ from' diff.same.out ||
    { echo "FAIL: identical: $(cat diff.same.out)"; fail=1; }
# the program's status first
expect "program fails" 5 diff.fails.out "$ws" trace --tool bbcount --fail-on-different -- \
    bash -c '"$@"; exit 5' sh "$ws" "${run[@]}"
# a MISMATCH (3) before a DIFFERENT: a launch of each kernel, the second
# one mismatching in timing mode (check_mismatch_status.sh)
expect "MISMATCH first" 3 diff.both.out "$ws" trace --tool bbcount --fail-on-different -- \
    bash -c '"$1" "${@:2:8}" && "$1" run --config mode=timing --block 256 "${10}" cas32 zeros:1 zeros:256' sh \
    "$ws" "${run[@]}" "$cas"
grep -q 'DIFFERENT from' diff.both.out && grep -q '(MISMATCH)$' diff.both.out ||
    { echo "FAIL: MISMATCH first: not both checks failed"; cat diff.both.out; fail=1; }
# --read shows a file: the switch is for tracing a program
expect "--read" 2 diff.read.out "$ws" trace --read nothing.wst --fail-on-different
exit $fail
