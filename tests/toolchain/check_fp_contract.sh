#!/usr/bin/env bash
# usage: check_fp_contract.sh WARPSCOPE SOURCE WORKDIR
# warpscope cc fuses a*b+c by default; -ffp-contract=off rounds twice, as a
# plain CPU loop does (docs/toolchain.md).
set -u
ws=$1 src=$2 dir=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
"$ws" cc -o "$dir/fused.elf" "$src" && "$ws" cc -ffp-contract=off -o "$dir/unfused.elf" "$src" || bad "compile"
"$ws" disasm "$dir/fused.elf" | grep -q "fmadd.s" && ok "default: fmadd.s" || bad "default build has no fmadd.s"
d=$("$ws" disasm "$dir/unfused.elf")
! grep -q "fmadd.s" <<<"$d" && grep -q "fmul.s" <<<"$d" && grep -q "fadd.s" <<<"$d" &&
    ok "-ffp-contract=off: fmul.s + fadd.s" || bad "-ffp-contract=off still fuses"
# a = b = 1+2^-12, c = -(1+2^-11): a*b rounds to 1+2^-11 (c cancels it: 0),
# fused keeps the 2^-24 = 5.96046448e-08
a=1.000244140625 c=-1.00048828125
f=$("$ws" run --block 1 "$dir/fused.elf" axpc zeros:1 $a $a $c) || bad "run fused"
u=$("$ws" run --block 1 "$dir/unfused.elf" axpc zeros:1 $a $a $c) || bad "run unfused"
[[ "$f" == *"arg 1: 5.96046448e-08"* ]] && ok "fused result keeps 2^-24" || bad "fused: $f"
[[ "$u" == *"arg 1: 0"* ]] && ok "unfused result is 0, as on the CPU" || bad "unfused: $u"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
