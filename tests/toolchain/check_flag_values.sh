#!/usr/bin/env bash
# usage: check_flag_values.sh WARPSCOPE SRCDIR WORKDIR
# clang options whose value is the next argument (-include FILE, -iquote
# DIR, -U NAME) reach clang with their value (before 2026-11-28 the value
# was taken for an input file: clang got `-include -c` and failed).
set -u
ws=$1 src=$2 dir=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
rm -f "$dir/flag_values.elf"
"$ws" cc -include "$src/forced.h" -iquote "$src/quoted" -DDROPPED -U DROPPED -o "$dir/flag_values.elf" \
    "$src/flag_kernel.c" && ok "builds with -include, -iquote and -U and their values" || bad "build"
r=$("$ws" run --block 4 "$dir/flag_values.elf" scaled zeros:4 2>&1)
[[ "$r" == "arg 1: 100 103 106 109"* ]] && ok "the forced header and the quoted one were used" || bad "run: $r"
e=$("$ws" cc -o "$dir/x.elf" "$src/flag_kernel.c" -include 2>&1) && bad "a missing value was accepted" ||
    { [[ "$e" == *"-include needs a value"* ]] && ok "a missing value is named" || bad "missing value: $e"; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
