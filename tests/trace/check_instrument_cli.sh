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
# OUT is written whole or not at all (until 2026-11-28 it was opened with
# "wb" in place: a write that failed left it truncated, a read-only file
# was replaced as root, a missing directory said only "No such file or
# directory").
"$ws" instrument "$k" -o "$dir/want.elf" > /dev/null || bad "instrument to a new file"
# OUT is IN: the module is read first, then replaced by its twin
cp "$k" "$dir/self.elf"
"$ws" instrument "$dir/self.elf" -o "$dir/self.elf" > /dev/null && cmp -s "$dir/self.elf" "$dir/want.elf" && ok || bad "OUT is IN"
# OUT in a directory that does not exist: said, nothing created
out=$("$ws" instrument "$k" -o "$dir/none/o.elf" 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "warpscope instrument: cannot write $dir/none/o.elf: its directory $dir/none does not exist" ] &&
    [ ! -e "$dir/none" ] && ok || bad "missing directory (rc $rc): $out"
# ... or in a "directory" that is a file
: > "$dir/file"
out=$("$ws" instrument "$k" -o "$dir/file/o.elf" 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "warpscope instrument: cannot write $dir/file/o.elf: its directory $dir/file is not a directory (a file is in the path)" ] &&
    ok || bad "a file as the directory (rc $rc): $out"
# a read-only OUT is left as it is, also for root
cp "$k" "$dir/ro.elf" && chmod 444 "$dir/ro.elf"
out=$("$ws" instrument "$k" -o "$dir/ro.elf" 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "warpscope instrument: cannot write $dir/ro.elf: the file is read-only (mode 0444): left as it is" ] &&
    cmp -s "$k" "$dir/ro.elf" && ok || bad "read-only OUT (rc $rc): $out"
# a write that fails part way (a 64 KiB file size limit) leaves the old OUT
# whole and no temporary file beside it
cp "$k" "$dir/old.elf"
before=$(ls "$dir" | sort)
out=$(trap '' XFSZ; ulimit -f 64; "$ws" instrument "$k" -o "$dir/old.elf" 2>&1); rc=$?
[ $rc = 1 ] && [[ "$out" == "warpscope instrument: cannot write $dir/old.elf: File too large (left as it was)" ]] &&
    cmp -s "$k" "$dir/old.elf" && [ "$(ls "$dir" | sort)" = "$before" ] && ok || bad "failed write (rc $rc): $out; $(ls "$dir")"
# a symbolic link: the file it names gets the twin, the link stays
cp "$k" "$dir/target.elf" && ln -s target.elf "$dir/link.elf"
"$ws" instrument "$k" -o "$dir/link.elf" > /dev/null && [ -L "$dir/link.elf" ] && cmp -s "$dir/target.elf" "$dir/want.elf" &&
    ok || bad "symbolic link OUT"
# a device is written in place, not replaced
"$ws" instrument "$k" -o /dev/null > /dev/null && [ -c /dev/null ] && ok || bad "-o /dev/null"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
