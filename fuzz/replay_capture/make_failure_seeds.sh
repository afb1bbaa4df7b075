#!/bin/bash
# Writes the failure seeds of fuzz/replay_capture/corpus: a real capture
# (under 2 KB) of failure_seed.c, whose first frame's launch faults, so the
# corpus holds a WSCAP_FAILURE section (section type 12) and the replay
# goes past it. A capture of an example with one is over 100 KB (its module
# links the device library); this one's module is failure_seed_kernel.c
# alone, linked as fuzz/module/make_seeds.sh links its seeds.
#   seed_failure_frame  byte 1, then the capture file (fuzz/capture_wrap.h);
#                       also in fuzz/capture_file/corpus
#   seed_failure_body   byte 0, the section count, then the uncompressed
#                       body, which the target wraps with valid checksums
# Run it again only when the capture format changes:
#   fuzz/replay_capture/make_failure_seeds.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
out=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cp "$here/failure_seed_kernel.c" k.c
"$build/bin/warpscope" cc -c -O2 -g -fdebug-prefix-map="$tmp"=. -o k.o k.c # (the same bytes from any folder)
ld.lld -m elf32lriscv --emit-relocs -z max-page-size=16 -T "$root/kernel/warpscope.ld" -o k.mod k.o
cc -std=c11 -I"$root/include" "$here/failure_seed.c" -L"$build" -Xlinker -rpath="$build" -lwarpscope -o failure_seed
"$build/bin/warpscope" capture -o f.wscap --frames all -- ./failure_seed k.mod
count=$(od -A n -t u4 -j 16 -N 4 f.wscap | tr -d ' ')
[ "$count" -lt 256 ] || { echo "make_failure_seeds.sh: $count sections: the body seed holds at most 255" >&2; exit 1; }
{ printf '\001'; cat f.wscap; } > "$out/seed_failure_frame"
cp "$out/seed_failure_frame" "$here/../capture_file/corpus/seed_failure_frame" # the reader's corpus too
zsize=$(od -A n -t u8 -j 32 -N 8 f.wscap | tr -d ' ') # the zstd frame alone (version 2: its chunk CRC table follows)
{ printf '\000'; printf "\\$(printf %03o "$count")"; tail -c +49 f.wscap | head -c "$zsize" | zstd -q -d; } > "$out/seed_failure_body"
ls -l "$out/seed_failure_frame" "$out/seed_failure_body"
