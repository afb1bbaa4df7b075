#!/bin/bash
# Regenerates the seed inputs of fuzz/module/corpus from seed_kernel.c:
# two compact modules (one object each, no libraries, file offsets packed
# with -z max-page-size=16) with and without DWARF, one with call frame
# rows in .eh_frame, and a few damaged copies. Inputs kept from fuzzing
# (named by their SHA-1, as libFuzzer names them) and regression inputs
# (regress_*) sit beside them. No file has an .elf suffix: the top-level
# .gitignore ignores *.elf.
#   usage: fuzz/module/make_seeds.sh BUILD_DIR     (BUILD_DIR/bin/warpscope)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
warpscope=$1/bin/warpscope
out=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
for g in g0 g; do
    "$warpscope" cc -c -O2 -$g -o "$tmp/seed_$g.o" "$here/seed_kernel.c"
    ld.lld -m elf32lriscv --emit-relocs -z max-page-size=16 -T "$root/kernel/warpscope.ld" \
        -o "$out/seed_$g" "$tmp/seed_$g.o"
done
# structs by value (src/runtime/elf_dwarf_agg.c classifies them)
"$warpscope" cc -c -O2 -g -o "$tmp/seed_byval.o" "$here/seed_byval.c"
ld.lld -m elf32lriscv --emit-relocs -z max-page-size=16 -T "$root/kernel/warpscope.ld" \
    -o "$out/seed_byval" "$tmp/seed_byval.o"
# call frame rows in .eh_frame and .debug_frame (the rewriter moves them:
# src/instrument/rewrite_cfi.c), from the tracer's test kernel
"$warpscope" cc -c -O2 -g -o "$tmp/cfi_kernel.o" "$root/tests/trace/cfi_kernel.c"
"$warpscope" cc -c -o "$tmp/cfi_frames.o" "$root/tests/trace/cfi_frames.S"
ld.lld -m elf32lriscv --emit-relocs -z max-page-size=16 -T "$root/kernel/warpscope.ld" \
    -o "$out/seed_cfi" "$tmp/cfi_kernel.o" "$tmp/cfi_frames.o"
# damaged copies: patch(file, offset, hex bytes) writes little-endian bytes
patch() { printf "$(echo "$3" | sed 's/\(..\)/\\x\1/g')" | dd of="$2" bs=1 seek="$1" conv=notrunc status=none; }
size=$(stat -c %s "$out/seed_g")
head -c $((size / 2)) "$out/seed_g" > "$out/seed_g_half"
head -c 200 "$out/seed_g0" > "$out/seed_g0_200"
cp "$out/seed_g0" "$out/seed_g0_overlap"
patch 92 "$out/seed_g0_overlap" 04000001      # program header 1 p_vaddr = 0x01000004
cp "$out/seed_g0" "$out/seed_g0_nophdr"
patch 44 "$out/seed_g0_nophdr" 0000           # e_phnum = 0
ls -l "$out"
