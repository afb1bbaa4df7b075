#!/bin/bash
# warpscope cc warns of a function holding a warp shuffle whose control
# flow the device does not follow (a jump to a label address computed in
# code) and names it with its source line; not of those it follows (the
# warp-scan kernels: after a jump-table switch, after a loop entered in
# its middle); and not at all with -Wno-warp-order or -w
# (docs/toolchain.md, "Code for a warp").
#   usage: check_warp_order.sh WARPSCOPE WARP_ORDER_KERNEL.c SCAN_KERNELS.c WORKDIR
ws=$1 src=$2 scans=$3 dir=$4
pass=0 fail=0
ok() { echo "ok: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
for opt in -O1 -O2; do
    "$ws" cc $opt -o "$dir/warp_order$opt.elf" "$src" 2> "$dir/warp_order$opt.err" || bad "cc $opt failed"
    grep -q "warning: .*: function computed_jump_scan (.*warp_order_kernel.c:[0-9]*) at 0x[0-9a-f]* holds a warp vote, shuffle or barrier, and its control flow is one the device does not follow" "$dir/warp_order$opt.err" &&
        ok "$opt: the computed jump's function named" || { bad "$opt: no warning for computed_jump_scan"; cat "$dir/warp_order$opt.err"; }
    "$ws" cc $opt -o "$dir/warp_scans$opt.elf" "$scans" 2> "$dir/warp_scans$opt.err" || bad "cc $opt $scans failed"
    [ ! -s "$dir/warp_scans$opt.err" ] && ok "$opt: no warning for the warp-scan kernels" ||
        { bad "$opt: warned of the warp-scan kernels"; cat "$dir/warp_scans$opt.err"; }
    "$ws" disasm "$dir/warp_scans$opt.elf" | awk '/<switch_scan>:/ { f = 1; next } /^[0-9a-f]+ </ { f = 0 } f' |
        grep -q "jr a[0-9]" && ok "$opt: switch_scan jumps through a table" || bad "$opt: switch_scan has no table jump"
    for quiet in -Wno-warp-order -w; do
        "$ws" cc $opt $quiet -o "$dir/warp_order_q.elf" "$src" 2> "$dir/warp_order_q.err" || bad "cc $opt $quiet failed"
        [ ! -s "$dir/warp_order_q.err" ] && ok "$opt $quiet: silent" || { bad "$opt $quiet: printed"; cat "$dir/warp_order_q.err"; }
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
