#!/bin/bash
# Longer seed sweep of the control-flow differential test (not run by CTest):
#   tests/cfdiff/sweep.sh BUILD_DIR FIRST_SEED COUNT [trace]
# generates, builds (-O0 and -O2, device and qemu) and compares COUNT
# programs; with "trace", also runs warpscope trace (bbcount, memtrace) on
# each device module and checks its counts against the device's, and
# branch, whose recording pass must group lanes as its counting pass.
set -u
build=$(cd "$1" && pwd); first=$2; count=$3; trace=${4:-}
src=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/cfdiff.XXXXXX)
ws=$build/bin/warpscope
qemu=$(command -v qemu-riscv32) || { echo "qemu-riscv32 not found"; exit 77; }
libgcc=$(ls /usr/lib/gcc/riscv64-unknown-elf/*/rv32imafc/ilp32f/libgcc.a | head -1)
rv="clang --target=riscv32-unknown-elf -march=rv32imafc -mabi=ilp32f -mno-relax -ffreestanding -nostdlib -fno-builtin -fno-math-errno -Wno-tautological-compare -I$src"
fail=0
for ((seed = first; seed < first + count; seed++)); do
  "$build/tests/cfdiff/gen_cf" $seed > "$work/cf_$seed.c"
  names=""
  for opt in O0 O2; do
    n=cf_${seed}_$opt
    "$ws" cc -$opt -DCF_DEVICE -fno-math-errno -Wno-tautological-compare -I"$src" -o "$work/$n.elf" "$src/cf_kernel.c" "$work/cf_$seed.c" || { echo "seed $seed: device build failed"; fail=1; continue; }
    $rv -$opt -c "$src/cf_qemu.c" -o "$work/${n}_q.o" && $rv -$opt -c "$work/cf_$seed.c" -o "$work/${n}_b.o" &&
      ld.lld -m elf32lriscv -Ttext=0x10000 -e _start -o "$work/$n.qemu" "$work/${n}_q.o" "$work/${n}_b.o" "$libgcc" ||
      { echo "seed $seed: qemu build failed"; fail=1; continue; }
    names="$names $n"
    if [ "$trace" = trace ]; then
      for t in bbcount memtrace branch; do
        "$ws" trace --tool $t -- "$build/tests/cfdiff/test_cfdiff" --once engine=fast "$work/$n.elf" > "$work/$n.$t" 2>&1
        if ! grep -q 'identical to the launch' "$work/$n.$t" || ! grep -q '(match)' "$work/$n.$t" ||
           grep -Eq 'other groups|a race|DIFFER|INCOMPLETE|MISMATCH' "$work/$n.$t"; then
          echo "seed $seed $opt: trace --tool $t disagrees with the device ($work/$n.$t)"; fail=1
        fi
      done
    fi
  done
  if ! "$build/tests/cfdiff/test_cfdiff" "$qemu" "$work" $names > "$work/cf_$seed.out" 2>&1; then
    echo "seed $seed: MISMATCH (see $work/cf_$seed.out)"; fail=1
  else
    echo "seed $seed: ok"
  fi
done
[ $fail = 0 ] && rm -rf "$work"
exit $fail
