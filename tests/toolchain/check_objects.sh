#!/usr/bin/env bash
# usage: check_objects.sh WARPSCOPE SRCDIR WORKDIR
# `warpscope cc -c` makes objects; `warpscope cc -o m.elf a.o b.o` links
# them (before 2026-11-27 it handed the objects to clang as sources: clang
# compiled nothing, warned "linker input unused", and ld.lld could not open
# the objects it was promised).
set -u
ws=$1 src=$2 dir=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
rm -f "$dir/obj_a.o" "$dir/obj_b.o" "$dir/objs.elf" "$dir/mixed.elf"
"$ws" cc -c -o "$dir/obj_a.o" "$src/shared_a.c" && "$ws" cc -c -o "$dir/obj_b.o" "$src/shared_b.c" &&
    ok "-c makes two objects" || bad "-c"
want="arg 1: 630 620 610 600 590"
"$ws" cc -o "$dir/objs.elf" "$dir/obj_a.o" "$dir/obj_b.o" && ok "link two objects" || bad "link two objects"
r=$("$ws" run --block 64 "$dir/objs.elf" ka zeros:64 2>&1)
[[ "$r" == "$want"* ]] && ok "module from objects runs" || bad "module from objects: $r"
"$ws" cc -o "$dir/mixed.elf" "$dir/obj_a.o" "$src/shared_b.c" && ok "link an object with a source" || bad "mixed"
r=$("$ws" run --block 64 "$dir/mixed.elf" ka zeros:64 2>&1)
[[ "$r" == "$want"* ]] && ok "mixed module runs" || bad "mixed module: $r"
[ -f "$dir/obj_a.o" ] && ok "the given object is kept" || bad "the given object was deleted"
e=$("$ws" cc -c -o "$dir/x.o" "$dir/obj_a.o" 2>&1) && bad "-c on an object succeeded" ||
    { [[ "$e" == *"is already an object"* ]] && ok "-c on an object refused" || bad "-c on an object: $e"; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
