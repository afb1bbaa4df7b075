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
# Without -o, outputs are named after the input in the current folder, as
# clang names them: a.c -> a.o with -c, a.c/a.o -> a.elf when linking (before
# 2026-11-27 `cc -c b.c` wrote a.o, over the a.o of `cc -c a.c`).
nd="$dir/noname"
rm -rf "$nd" && mkdir -p "$nd"
(cd "$nd" && "$ws" cc -c "$src/shared_a.c" && "$ws" cc -c "$src/shared_b.c") && ok "-c without -o" || bad "-c without -o"
[ -f "$nd/shared_a.o" ] && [ -f "$nd/shared_b.o" ] && [ ! -e "$nd/a.o" ] && ok "-c names each object after its source" ||
    bad "-c without -o wrote: $(ls "$nd")"
(cd "$nd" && "$ws" cc shared_a.o shared_b.o) && [ -f "$nd/shared_a.elf" ] && ok "link without -o: shared_a.elf" ||
    bad "link without -o wrote: $(ls "$nd")"
r=$("$ws" run --block 64 "$nd/shared_a.elf" ka zeros:64 2>&1)
[[ "$r" == "$want"* ]] && ok "module from default-named objects runs" || bad "default-named module: $r"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
