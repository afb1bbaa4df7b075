#!/usr/bin/env bash
# `warpscope run` refuses an out-of-range integer argument with the text
# ws_launch gives (test_launch_checks.c asserts the same lines for the
# API). Until 2026-11-28 the two differed: run counted arguments from 1 and
# said "'2' ..." only for what its own parser refused, took 2 for a bool
# (the launch then refused it) and gave a bool -1 the range 0 to 255.
# usage: check_run_args.sh WARPSCOPE check_kernels.elf
set -u
ws=$1 elf=$2
pass=0 fail=0
# refuse WHAT EXPECTED-LINE -- ARGS...: exit 1, and stderr is exactly that line
refuse() {
    local what=$1 want=$2; shift 3
    local out; out=$(timeout 20 "$ws" run --block 1 "$elf" "$@" 2>&1 >/dev/null); local rc=$?
    if [ $rc -eq 1 ] && [ "$out" == "warpscope run: $want" ]; then pass=$((pass + 1)); echo "ok: $what"
    else fail=$((fail + 1)); echo "FAIL: $what (rc $rc): $out"; fi
}
refuse "bool 2" "launch of 'flag': parameter 1 'b' has type '_Bool': value 2 is out of range 0..1 (a bool is 0 or 1)" \
    -- flag zeros:1 2
refuse "bool -1" "launch of 'flag': parameter 1 'b' has type '_Bool': value -1 is out of range 0..1 (a bool is 0 or 1)" \
    -- flag zeros:1 -1
refuse "char 300" "launch of 'typed': parameter 3 'c' has type 'char': value 300 is out of range 0..255" \
    -- typed zeros:1 1 1 300 1 1
refuse "int 2^31" "launch of 'typed': parameter 1 'n' has type 'int': value 2147483648 is out of range -2147483648..2147483647" \
    -- typed zeros:1 2147483648 1 3 1 1
refuse "long long past 64 bits" "launch of 'typed': parameter 4 'big' has type 'long long': value 99999999999999999999 is out of range -9223372036854775808..9223372036854775807" \
    -- typed zeros:1 1 1 3 99999999999999999999 1
refuse "int 'abc'" "launch of 'typed': parameter 1 'n' has type 'int': 'abc' is not a whole number" \
    -- typed zeros:1 abc 1 3 1 1
# the count too (run said "typed takes 6 arguments, 5 given" until 2026-11-29)
refuse "5 of 6 arguments" "launch of 'typed': 5 arguments given, the kernel takes 6" -- typed zeros:1 1 1 3 1
refuse "1 of 6 arguments" "launch of 'typed': 1 argument given, the kernel takes 6" -- typed zeros:1
out=$("$ws" run --block 1 "$elf" flag zeros:1 1 2>&1)
[[ "$out" == *"arg 1: 11"* ]] && { pass=$((pass + 1)); echo "ok: bool 1 runs"; } || { fail=$((fail + 1)); echo "FAIL: bool 1: $out"; }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
