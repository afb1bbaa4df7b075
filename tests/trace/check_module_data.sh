#!/bin/bash
# Accesses to the module's own data are recorded at the addresses the
# launch uses: global_kernel.c's thread 1 reads scale[1] and writes
# table[1], then reads table[2]. (During the recording pass that data
# lives in the recording twin's copy, and the trace named the copy: dump
# showed addresses near 0xbf000000 that the program never sees.)
#   check_module_data.sh WARPSCOPE LLVM_NM global_kernel.elf
set -u
ws=$1 nm=$2 k=$3
sym() { "$nm" "$k" | awk -v s="$1" '$3 == s { print $1 }'; }
at() { printf '0x%08x' $((0x$1 + $2)); }
table=$(sym table) scale=$(sym scale)
[ -n "$table" ] && [ -n "$scale" ] || { echo "FAIL: no table/scale symbols in $k"; exit 1; }
"$ws" trace --tool dump --format jsonl -- "$ws" run --grid 1 --block 32 "$k" globals zeros:32 > globals.out 2>&1 || exit 1
grep '"thread":1,"access"' globals.out
fail=0
for want in "load\",\"size\":4,\"addr\":\"$(at "$scale" 4)" "store\",\"size\":4,\"addr\":\"$(at "$table" 4)" \
            "load\",\"size\":4,\"addr\":\"$(at "$table" 8)"; do
  grep -qF "\"thread\":1,\"access\":\"$want\"" globals.out || { echo "FAIL: no access $want"; fail=1; }
done
"$ws" trace --tool memtrace -- "$ws" run --grid 1 --block 32 "$k" globals zeros:32 > memtrace.out 2>&1
grep -q 'identical to the launch' memtrace.out || { echo "FAIL: results"; cat memtrace.out; fail=1; }
exit $fail
