#!/bin/bash
# `warpscope cc -MD` when it builds a module: the dependency file goes
# beside the module (OUT.d; OUT-SOURCE.d for each of several sources),
# names the module as its target and the headers the source read, and
# the temporary folder of the objects is gone afterwards (until 2026-11-28
# clang wrote the .d into that folder, which then stayed behind).
#   check_dep_files.sh WARPSCOPE OBJECTS_DIR WORKDIR
set -u
ws=$1 src=$2 dir=$3/dep_files
rm -rf "$dir" && mkdir -p "$dir/tmp" "$dir/out" || exit 1
cd "$dir" || exit 1
fails=0
bad() { echo "FAIL: $*"; fails=$((fails+1)); }
printf '#include <warpscope/kernel.h>\nWS_KERNEL void k(int *o) { o[threadIdx_x()] = 1; }\n' > one.c
TMPDIR=$dir/tmp "$ws" cc -MD -o out/one.elf one.c > cc1.txt 2>&1 || { bad "cc -MD exit $?"; cat cc1.txt; }
[ -f out/one.d ] && grep -q "^out/one.elf: one.c" out/one.d && grep -q "warpscope/kernel.h" out/one.d &&
    echo "ok: one source: out/one.d, target the module, the headers" || { bad "out/one.d"; ls out; cat out/one.d; }
TMPDIR=$dir/tmp "$ws" cc -MMD -o out/two.elf "$src/shared_a.c" "$src/shared_b.c" > cc2.txt 2>&1 || { bad "cc -MMD exit $?"; cat cc2.txt; }
[ -f out/two-shared_a.d ] && [ -f out/two-shared_b.d ] && grep -q "^out/two.elf: .*shared_b.c" out/two-shared_b.d &&
    ! grep -q "/include/std" out/two-shared_a.d && grep -q "/include/std" out/one.d &&
    echo "ok: two sources: out/two-shared_a.d and out/two-shared_b.d (-MMD: no system headers)" || { bad "two sources"; ls out; }
TMPDIR=$dir/tmp "$ws" cc -MD -MF mine.d -o out/three.elf one.c > cc3.txt 2>&1 || bad "cc -MD -MF exit $?"
[ -f mine.d ] && [ ! -f out/three.d ] && echo "ok: -MF is the user's" || bad "-MF not followed"
[ -z "$(ls -A tmp)" ] && echo "ok: no temporary folder left" || { bad "left in TMPDIR: $(ls tmp)"; }
echo "$fails failed"
[ "$fails" = 0 ]
