#!/bin/bash
# A build tree whose path holds a comma. gcc's -Wl,ARG splits ARG at every
# comma, so no path may reach the linker inside one: before 2026-11-27 CMake
# gave every binary the build rpath as -Wl,-rpath,BUILD_DIR and a clone at
# /tmp/a,b failed to link ("ld: cannot find b/build"), and the uninstalled
# pkg-config file (warpscope-uninstalled.pc) put its libdir in one too.
# A whole second build is too slow for a test, so this checks the two
# places a path meets the linker:
#  1. the build tree's binaries carry only $ORIGIN-relative run paths
#     (CMAKE_BUILD_RPATH_USE_ORIGIN), so CMake passes no absolute path;
#  2. a program links through warpscope-uninstalled.pc with its libdir seen
#     through a directory whose name has a comma, and runs from it.
#   usage: check_comma_path.sh BUILD_DIR SOURCE_DIR [EXTRA_CFLAGS]
set -uo pipefail
build=$1 src=$2 extra=${3:-}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

for f in "$build/libwarpscope_capture.so" \
         "$build/examples/vecadd/vecadd" "$build/tests/capture/shim_program"; do
    [ -e "$f" ] || { bad "$f: not built"; continue; }
    paths=$(readelf -d "$f" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\2/p')
    [ -n "$paths" ] || { bad "$f: no run path"; continue; }
    abs=0
    IFS=: read -ra parts <<< "$paths"
    for p in "${parts[@]}"; do
        case $p in '$ORIGIN'*|'') ;; *) abs=1 ;; esac
    done
    [ $abs = 0 ] && ok || bad "$f: run path '$paths' holds an absolute path, which CMake passes to the linker as -Wl,-rpath,PATH (split at a comma)"
done

mkdir -p "$tmp/a,b" && ln -s "$build" "$tmp/a,b/build" || exit 1
lib="$tmp/a,b/build"
cat > "$tmp/p.c" <<'C'
#include <stdio.h>
#include <warpscope/warpscope.h>
int main(void) {
    ws_device *d;
    if (ws_device_open(NULL, &d) != WS_OK) return 1;
    printf("opened %s\n", ws_version());
    return ws_device_close(d) == WS_OK ? 0 : 1;
}
C
export PKG_CONFIG_PATH="$build"
unset PKG_CONFIG_DISABLE_UNINSTALLED
# (pkg-config escapes a space in a path with a backslash: read as the shell reads it)
if eval "libs=($(pkg-config --define-variable=libdir="$lib" --libs warpscope))" &&
   eval "cflags=($(pkg-config --cflags warpscope))" &&
   out=$(cc -std=c11 $extra "${cflags[@]}" "$tmp/p.c" "${libs[@]}" -o "$tmp/p" 2>&1); then
    ok
    ldd "$tmp/p" > "$tmp/ldd.txt"
    grep -qF "$lib/libwarpscope.so.0" "$tmp/ldd.txt" && ok || bad "the program does not load libwarpscope from '$lib': $(cat "$tmp/ldd.txt")"
    out=$("$tmp/p" 2>&1) && [[ $out == opened* ]] && ok || bad "the program linked through '$lib' does not run: $out"
else
    bad "linking through warpscope-uninstalled.pc with libdir '$lib' (${libs[*]}): $out"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
