#!/bin/bash
# warpscope cc warns of a function holding a warp shuffle whose control
# flow the device does not follow (a jump to a label address computed in
# code) and names it with its source line; not of one it follows (a
# jump-table switch, an irreducible loop); and not at all with
# -Wno-warp-order or -w (docs/toolchain.md, "Code for a warp").
#   usage: check_warp_order.sh WARPSCOPE KERNEL.c WORKDIR
ws=$1 src=$2 dir=$3
pass=0 fail=0
ok() { echo "ok: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
for opt in -O1 -O2; do
    "$ws" cc $opt -o "$dir/warp_order$opt.elf" "$src" 2> "$dir/warp_order$opt.err" || bad "cc $opt failed"
    grep -q "warning: .*: function computed_jump_scan (.*warp_order_kernel.c:[0-9]*) at 0x[0-9a-f]* holds a warp vote, shuffle or barrier, and its control flow is one the device does not follow" "$dir/warp_order$opt.err" &&
        ok "$opt: the computed jump's function named" || { bad "$opt: no warning for computed_jump_scan"; cat "$dir/warp_order$opt.err"; }
    grep -q "irreducible_scan" "$dir/warp_order$opt.err" && bad "$opt: warned of irreducible_scan" ||
        ok "$opt: no warning for the irreducible loop"
    "$ws" disasm "$dir/warp_order$opt.elf" | awk '/<switch_then_scan>:/ { f = 1; next } /^[0-9a-f]+ </ { f = 0 } f' |
        grep -q "jr a[0-9]" && ok "$opt: switch_then_scan jumps through a table" || bad "$opt: switch_then_scan has no table jump"
    grep -q "switch_then_scan" "$dir/warp_order$opt.err" && bad "$opt: warned of switch_then_scan" ||
        ok "$opt: no warning for the jump-table switch"
    for quiet in -Wno-warp-order -w; do
        "$ws" cc $opt $quiet -o "$dir/warp_order_q.elf" "$src" 2> "$dir/warp_order_q.err" || bad "cc $opt $quiet failed"
        [ ! -s "$dir/warp_order_q.err" ] && ok "$opt $quiet: silent" || { bad "$opt $quiet: printed"; cat "$dir/warp_order_q.err"; }
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
