#!/usr/bin/env bash
# usage: check_struct_buffers.sh WARPSCOPE SOURCE WORKDIR
# warpscope run's zeros:N for a pointer to a struct, long double or
# _Float16 holds N whole elements (until 2026-11-29 it held N 4-byte words,
# so a kernel filling N struct elements faulted out of bounds), prints
# each element in braces, and refuses iota:N for such elements.
set -u
ws=$1 src=$2 dir=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
mkdir -p "$dir"
"$ws" cc -o "$dir/s.elf" "$src" || { echo "FAIL: compile"; exit 1; }
expect() { # name expected-first-line args...
    local name=$1 want=$2; shift 2
    local out
    out=$("$ws" run --block 8 "$dir/s.elf" "$@" 2>&1)
    [[ "$(head -1 <<<"$out")" == "$want" ]] && ok "$name" || bad "$name: $out"
}
expect "struct of floats: 8 bytes an element, printed as floats" \
    "arg 1: {0 -0} {1 -0.5} {2 -1} {3 -1.5}" fill_f2 zeros:4 4
expect "mixed struct: 20 bytes an element, printed as words" \
    "arg 1: {0x00000000 0x00000000 0x3fc00000 0x00000000 0x00000061} {0x00000000 0x00000000 0x3fc00000 0x00000001 0x00000062}" \
    fill_particles zeros:2 2
expect "long double: 16 bytes an element (binary128: 1.0 is 0x3fff0000 in the top word)" \
    "arg 1: {0x00000000 0x00000000 0x00000000 0x00000000} {0x00000000 0x00000000 0x00000000 0x3fff0000}" \
    fill_ld zeros:2 2
expect "_Float16: 2 bytes an element" "arg 1: {0x3c00} {0x3c01} {0x3c02}" fill_half_bits zeros:3 3
expect "_Complex float: 8 bytes an element, printed as floats (real, imaginary)" \
    "arg 1: {0 0.25} {1 0.25} {2 0.25}" fill_cf zeros:3 3
expect "void *: still 4-byte words" "arg 1: 5 5 5 5 5 5 5 5" touch_void zeros:8
out=$("$ws" run --block 8 "$dir/s.elf" fill_f2 iota:4 4 2>&1)
[[ $? -ne 0 && "$out" == *"parameter 0 'o' has type 'float2_t *': 'iota:4': iota:N fills integers or floats; the elements here are 8-byte objects: use zeros:N"* ]] &&
    ok "iota:N refused for a struct" || bad "iota on a struct: $out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
