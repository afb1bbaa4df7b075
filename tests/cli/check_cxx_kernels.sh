#!/usr/bin/env bash
# usage: check_cxx_kernels.sh WARPSCOPE SOURCE WORKDIR
# C++ kernels are named by their mangled symbols, as cuModuleGetFunction
# names them; their parameters come from DWARF's DW_AT_linkage_name (and
# from subprograms inside namespaces). Until 2026-11-29 only DW_AT_name at
# the compilation unit's top level was matched: every mangled kernel was
# "[no DWARF]" in `warpscope info` and could not be launched.
set -u
ws=$1 src=$2 dir=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
mkdir -p "$dir"
"$ws" cc -Wall -Wextra -Werror -pedantic -o "$dir/cxx.elf" "$src" || { echo "FAIL: compile"; exit 1; }
info=$("$ws" info "$dir/cxx.elf")
echo "$info"
! grep -q "no DWARF" <<<"$info" && ok "every kernel has parameter information" || bad "a kernel without DWARF"
for sig in "_ZN2ns5scaleIfEEvPT_S1_(float \*p, float s)" "_ZN2ns5scaleIiEEvPT_S1_(int \*p, int s)" \
           "_Z4overPi(int \*p)" "_Z4overPf(float \*p)" "_ZN1S4fillEPii(int \*p, int v)" \
           "_ZN1a1b4deepEPxx(long long \*p, long long v)" "plain(int \*p)" "_Z6by_refRiPf(int &x, float \*o)" \
           "_Z4refsRKdOdRA4_f(const double &d, double &&r, float (&arr)\[4\])"; do
    grep -q "^kernel $sig" <<<"$info" && ok "info: $sig" || bad "info lacks: $sig"
done
run() { # expected-line kernel args...
    local want=$1; shift
    local out
    out=$("$ws" run --block 4 "$dir/cxx.elf" "$@" 2>&1)
    [[ "$out" == *"$want"* ]] && ok "run $*" || bad "run $*: $out"
}
run "arg 1: 0 2.5 5 7.5" _ZN2ns5scaleIfEEvPT_S1_ iota:4 2.5
run "arg 1: 0 -3 -6 -9" _ZN2ns5scaleIiEEvPT_S1_ iota:4 -3
run "arg 1: 7 7 7 7" _Z4overPi zeros:4
run "arg 1: 1.5 1.5 1.5 1.5" _Z4overPf zeros:4
run "arg 1: 11 11 11 11" _ZN1S4fillEPii zeros:4 11
run "arg 1: 30000000000 30000000000 30000000000 30000000000" _ZN1a1b4deepEPxx zeros:4 10000000000
run "arg 1: 3 3 3 3" plain zeros:4
run "arg 1: 9" _Z6by_refRiPf iota:1 zeros:4
out=$("$ws" run --block 1 "$dir/cxx.elf" _Z4refsRKdOdRA4_f zeros:1 zeros:1 zeros:4 2>&1)
[[ "$out" == *"arg 3: 0 0 0 1.5"* ]] && ok "references to a double and to an array" || bad "refs: $out"
out=$("$ws" run --block 2 "$dir/cxx.elf" _Z4saysPi zeros:9 2>&1)
[[ "$out" == *"lane 0 of 2"*"lane 1 of 2"*"arg 1: 4 5 0 0 0 0 0 0 2"* ]] && ok "printf, assert, vote, shuffle, atomics from C++" ||
    bad "C++ printf: $out"
# C kernels with the header's helpers build with -pedantic -Werror too, in
# C99 and C11 (until 2026-11-29 the header's statement expressions and
# _Generic were errors there)
cat > "$dir/pedantic.c" <<'KERNEL'
#include <warpscope/kernel.h>
WS_KERNEL void k(int *o)
{
    unsigned t = threadIdx_x() + blockIdx_y() * blockDim_x();
    o[t] = ws_any(1) + ws_shfl_xor(2, 1) + (int)ws_active_mask() * 0 + atomicAdd(&o[40], 1) * 0;
    atomicMax(&o[41], (int)t);
    printf("%u\n", t);
}
KERNEL
for std in c99 c11; do
    "$ws" cc -std=$std -Wall -Wextra -Werror -pedantic -o "$dir/pedantic.elf" "$dir/pedantic.c" &&
        ok "-std=$std -pedantic -Werror" || bad "-std=$std -pedantic -Werror"
done
# the launch checks a C++ kernel's arguments as a C kernel's
out=$("$ws" run --block 4 "$dir/cxx.elf" _ZN2ns5scaleIiEEvPT_S1_ iota:4 2.5 2>&1)
[[ "$out" == *"parameter 1 's' has type 'int': '2.5' is not a whole number"* ]] && ok "argument type checked" ||
    bad "argument check: $out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
