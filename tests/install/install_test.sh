#!/usr/bin/env bash
# Install the build into a temporary prefix, then build an example from
# outside the tree the way a user would: the installed `warpscope cc` for the
# kernel, pkg-config for the host program against the shared library.
set -euo pipefail
build=$1 src=$2 extra=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cd "$tmp"
"$tmp/prefix/bin/warpscope" cc -o vecadd_kernel.elf "$src/examples/vecadd/vecadd_kernel.c"
cc -std=c11 $extra $(pkg-config --cflags warpscope) -I"$src/examples/common" \
   "$src/examples/vecadd/vecadd.c" "$src/examples/common/example.c" \
   $(pkg-config --libs warpscope) -Xlinker -rpath="$tmp/prefix/lib" -o vecadd
ldd ./vecadd > ldd.txt   # not piped into grep -q: an early exit would SIGPIPE ldd
grep -q "$tmp/prefix/lib/libwarpscope.so.0" ldd.txt
out=$(./vecadd)
echo "$out"
case "$out" in *PASS*) ;; *) echo "0 passed, 1 failed"; exit 1 ;; esac
# the installed capture command finds the installed shim beside it
cap=$("$tmp/prefix/bin/warpscope" capture -o v.wscap --frames launches=0 -- ./vecadd)
echo "$cap"
case "$cap" in *"captured launch 0: 1 call,"*) ;; *) echo "1 passed, 1 failed"; exit 1 ;; esac
# every public header is installed and compiles on its own (graphics.h,
# trace.h, events.h and capture.h were missing from installs)
for h in "$src"/include/warpscope/*.h; do
  echo "#include <warpscope/$(basename "$h")>" > one.c
  cc -std=c11 -fsyntax-only $(pkg-config --cflags warpscope) one.c || { echo "2 passed, 1 failed"; exit 1; }
done
# the exit stub's ELF for gdb through OpenOCD (add-symbol-file), beside warpscope.py
stub="$tmp/prefix/share/warpscope/gdb/exit-stub.elf"
{ [ -s "$stub" ] && grep -aq __ws_thread_exit "$stub"; } || { echo "3 passed, 1 failed"; exit 1; }
echo "4 passed, 0 failed"
