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
case "$(pkg-config --cflags warpscope)" in *"$src/include"*) ;; *) echo "cflags miss the source include"; exit 1 ;; esac
cd "$tmp"
"$build/bin/warpscope" cc -o vecadd_kernel.elf "$src/examples/vecadd/vecadd_kernel.c"
cc -std=c11 $extra $(pkg-config --cflags warpscope) -I"$src/examples/common" \
   "$src/examples/vecadd/vecadd.c" "$src/examples/common/example.c" $(pkg-config --libs warpscope) -o vecadd
ldd ./vecadd > ldd.txt
grep -q "$build/libwarpscope.so.0" ldd.txt
out=$(./vecadd)
echo "$out"
case "$out" in *PASS*) echo "1 passed, 0 failed" ;; *) echo "0 passed, 1 failed"; exit 1 ;; esac
