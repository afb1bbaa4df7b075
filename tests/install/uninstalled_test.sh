#!/usr/bin/env bash
# Build an example against the build tree itself, through pkg-config and the
# generated warpscope-uninstalled.pc (no install step), the way someone
# hacking on warpscope builds their own program against it.
set -euo pipefail
build=$1 src=$2 extra=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PKG_CONFIG_PATH="$build"
unset PKG_CONFIG_DISABLE_UNINSTALLED
pkg-config --exists warpscope
# (pkg-config escapes a space in a path with a backslash: read as the shell reads it)
eval "cflags=($(pkg-config --cflags warpscope))"
case " ${cflags[*]} " in *" -I$src/include "*) ;; *) echo "cflags miss the source include: ${cflags[*]}"; exit 1 ;; esac
eval "libs=($(pkg-config --libs warpscope))"
cd "$tmp"
"$build/bin/warpscope" cc -o vecadd_kernel.elf "$src/examples/vecadd/vecadd_kernel.c"
cc -std=c11 $extra "${cflags[@]}" -I"$src/examples/common" \
   "$src/examples/vecadd/vecadd.c" "$src/examples/common/example.c" "${libs[@]}" -o vecadd
ldd ./vecadd > ldd.txt
grep -q "$build/libwarpscope.so.0" ldd.txt
out=$(./vecadd)
echo "$out"
case "$out" in *PASS*) echo "1 passed, 0 failed" ;; *) echo "0 passed, 1 failed"; exit 1 ;; esac
