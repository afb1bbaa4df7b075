#!/bin/bash
# warpscope instrument's command line: each refusal says what is wrong
# (until 2026-11-28 every one printed the usage line alone, and --count
# --record wrote the recording twin, the last named, without a word).
#   check_instrument_cli.sh WARPSCOPE MODULE.elf
ws=$1 k=$2
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
usage='usage: warpscope instrument [--count|--record] [--warps] [--list] MODULE.elf -o OUT.elf'
refused() { # WHY ARGS...: status 2, WHY then the usage line, nothing written
    local why=$1; shift
    local out; out=$("$ws" instrument "$@" 2>&1); local rc=$?
    [ $rc = 2 ] && [ "$out" = "$(printf 'warpscope instrument: %s\n%s' "$why" "$usage")" ] && [ ! -e "$dir/o.elf" ] &&
        ok || bad "instrument $* (rc $rc): $out"
}
refused "--count and --record each write one twin: give one of them" --count --record "$k" -o "$dir/o.elf"
refused "--count and --record each write one twin: give one of them" --record "$k" --count -o "$dir/o.elf"
refused "one module at a time: $k and $k" "$k" "$k" -o "$dir/o.elf"
refused "unknown option '--cout'" --cout "$k" -o "$dir/o.elf"
refused "-o needs the file to write" "$k" -o
refused "-o needs the file to write" "$k" -o ""
refused "no -o OUT.elf to write" "$k"
refused "no module to instrument" -o "$dir/o.elf"
# a mode named twice is one choice, not a conflict
"$ws" instrument --count --count "$k" -o "$dir/c.elf" > /dev/null && "$ws" instrument --count "$k" -o "$dir/c1.elf" > /dev/null &&
    cmp -s "$dir/c.elf" "$dir/c1.elf" && ok || bad "--count --count"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
