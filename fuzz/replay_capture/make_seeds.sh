#!/bin/bash
# Writes the real-capture seeds of fuzz/replay_capture/corpus, each about
# 2 KB (a capture of an example is over 100 KB: its module links the
# device library; this module is seed_kernels.c alone, linked as
# fuzz/module/make_seeds.sh links its seeds), from seed_program.c:
#   seed_failure_*  its first frame's launch faults, so the corpus holds a
#                   WSCAP_FAILURE section (section type 12) and the replay
#                   goes past it
#   seed_struct_*   a launch with a struct by value in registers and one
#                   by reference, their bytes after the arguments
# Each as
#   seed_NAME_frame  byte 1, then the capture file (fuzz/capture_wrap.h);
#                    also in fuzz/capture_file/corpus
#   seed_NAME_body   byte 0, the section count, then the uncompressed
#                    body, which the target wraps with valid checksums
# Run it again only when the capture format changes:
#   fuzz/replay_capture/make_seeds.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
out=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

seed() { # NAME: capture `seed_program NAME` into seed_NAME_*
    local name=$1 count zsize
    "$build/bin/warpscope" capture -o f.wscap --frames all -- ./seed_program "$name" k.mod
    count=$(od -A n -t u4 -j 16 -N 4 f.wscap | tr -d ' ')
    [ "$count" -lt 256 ] || { echo "make_seeds.sh: $count sections: the body seed holds at most 255" >&2; exit 1; }
    { printf '\001'; cat f.wscap; } > "$out/seed_${name}_frame"
    cp "$out/seed_${name}_frame" "$here/../capture_file/corpus/seed_${name}_frame" # the reader's corpus too
    zsize=$(od -A n -t u8 -j 32 -N 8 f.wscap | tr -d ' ') # the zstd frame alone (version 2: its chunk CRC table follows)
    { printf '\000'; printf "\\$(printf %03o "$count")"; tail -c +49 f.wscap | head -c "$zsize" | zstd -q -d; } > "$out/seed_${name}_body"
    ls -l "$out/seed_${name}_frame" "$out/seed_${name}_body"
}
cp "$here/seed_kernels.c" "$here/seed_types.h" .
"$build/bin/warpscope" cc -c -O2 -g -fdebug-prefix-map="$tmp"=. -o k.o seed_kernels.c # (the same bytes from any folder)
ld.lld -m elf32lriscv --emit-relocs -z max-page-size=16 -T "$root/kernel/warpscope.ld" -o k.mod k.o
cc -std=c11 -I"$root/include" -I"$here" "$here/seed_program.c" -L"$build" -Xlinker -rpath="$build" -lwarpscope -o seed_program
seed failure
seed struct
