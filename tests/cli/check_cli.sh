#!/usr/bin/env bash
# usage: check_cli.sh WARPSCOPE cli_kernels.elf WORKDIR
set -u
ws=$1 elf=$2 dir=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
# refuse WHAT EXPECTED-TEXT -- COMMAND...: must exit non-zero and say EXPECTED-TEXT
refuse() {
    local what=$1 want=$2; shift 3
    local out; out=$(timeout 20 "$@" 2>&1); local rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [[ "$out" == *"$want"* ]]; then ok "$what"; else bad "$what (rc $rc): $out"; fi
}
run() { "$ws" run "$@"; }
K=("$elf" kinds iota:8)

# item 10: every bad number is named, nothing silently becomes 0
refuse "float 'abc'"          "'abc' is not a number"            -- "$ws" run "${K[@]}" abc 1 2 3 4 5
refuse "empty float"          "'' is not a number"               -- "$ws" run "${K[@]}" "" 1 2 3 4 5
refuse "u64 'nan'"            "'nan' is not a whole number"      -- "$ws" run "${K[@]}" 1.5 nan 2 3 4 5
refuse "u64 negative"         "value -1 is out of range 0..18446744073709551615" -- "$ws" run "${K[@]}" 1.5 -1 2 3 4 5
refuse "short '1e3'"          "'1e3' is not a whole number"      -- "$ws" run "${K[@]}" 1.5 1 1e3 3 4 5
refuse "short out of range"   "parameter 3 's' has type 'short': value 40000 is out of range -32768..32767" -- "$ws" run "${K[@]}" 1.5 1 40000 3 4 5
refuse "uchar out of range"   "value 256 is out of range 0..255"  -- "$ws" run "${K[@]}" 1.5 1 2 256 4 5
refuse "plain char negative"  "launch of 'chars': parameter 0 'c' has type 'char': value -1 is out of range 0..255 (plain char is unsigned on RISC-V: declare it signed char)" -- "$ws" run "$elf" chars -1 -1 zeros:1
refuse "uchar negative"       "value -1 is out of range 0..255"  -- "$ws" run "${K[@]}" 1.5 1 2 -1 4 5
out=$("$ws" run "${K[@]}" 1.5 1 2 -1 4 5 2>&1)
[[ "$out" != *"plain char"* ]] && ok "no plain-char hint for unsigned char" || bad "plain-char hint for unsigned char: $out"
out=$(run "$elf" chars 200 -1 zeros:1 2>&1)
[[ "$out" == *"arg 3: 199"* ]] && ok "plain char 200, signed char -1" || bad "chars: $out"
refuse "int out of range"     "value 4294967296 is out of range -2147483648..2147483647" -- "$ws" run "${K[@]}" 1.5 1 2 3 4 4294967296
refuse "float out of range"   "out of range for float"           -- "$ws" run "${K[@]}" 1e39 1 2 3 4 5
refuse "double out of range"  "'1e400' is out of range for double" -- "$ws" run "${K[@]}" 1.5 1 2 3 1e400 5
refuse "double below -DBL_MAX" "'-2e308' is out of range for double" -- "$ws" run "${K[@]}" 1.5 1 2 3 -2e308 5
out=$(run "${K[@]}" 1.5 1 2 3 -inf 5 2>&1) && [[ "$out" == *" -inf "* ]] && ok "double -inf as written" || bad "double -inf: $out"
refuse "float past FLT_MAX"   "out of range for float"           -- "$ws" run "${K[@]}" 3.4028236e38 1 2 3 4 5
# FLT_MAX as <float.h> spells it rounds to FLT_MAX: in range (it was refused)
out=$(run "${K[@]}" 3.40282347e38 1 2 3 4 5 2>&1) && ok "FLT_MAX as written in float.h" || bad "FLT_MAX refused: $out"
refuse "pointer given a number" "a pointer takes zeros:N, iota:N or file:PATH" -- "$ws" run "$elf" kinds 5 1.5 1 2 3 4 5
# timing mode's summary gives the simulated cycles; functional mode has none
out=$("$ws" run --config mode=timing "$elf" calls_helper zeros:32 2>&1)
[[ "$out" =~ SIMT\ efficiency\ [0-9.]+%,\ [0-9]+\ cycles, ]] && ok "timing mode: cycles in the summary" || bad "no cycles in timing mode: $out"
out=$("$ws" run "$elf" calls_helper zeros:32 2>&1)
[[ "$out" != *cycles* ]] && ok "functional mode: no cycles" || bad "cycles in functional mode: $out"
refuse "zeros:0"              "N must be a whole number"         -- "$ws" run "$elf" kinds zeros:0 1.5 1 2 3 4 5
refuse "--shared abc"         "--shared 'abc' is not a whole number" -- "$ws" run --shared abc "${K[@]}" 1.5 1 2 3 4 5
refuse "--grid 2x"            "dimension 1 ('2x')"               -- "$ws" run --grid 2x "${K[@]}" 1.5 1 2 3 4 5
refuse "--grid 1,2,3,4"       "give X, X,Y or X,Y,Z"             -- "$ws" run --grid 1,2,3,4 "${K[@]}" 1.5 1 2 3 4 5
refuse "--grid 16x16"          "separate dimensions with commas (X,Y,Z)" -- "$ws" run --grid 16x16 "${K[@]}" 1.5 1 2 3 4 5
refuse "--grid wraps"         "dimension 1 ('4294967297')"       -- "$ws" run --grid 4294967297 "${K[@]}" 1.5 1 2 3 4 5
refuse "--block 0"            "dimension 1 ('0')"                -- "$ws" run --block 0 "${K[@]}" 1.5 1 2 3 4 5
refuse "wrong count"          "warpscope run: launch of 'kinds': 6 arguments given, the kernel takes 7" -- "$ws" run "${K[@]}" 1.5 1 2 3 4
# options after the positionals: a word starting with -- is an option there
# (it was counted as kernel arguments: "kinds takes 7 arguments, 9 given")
stats() { sed -n 's/.*: \([0-9]* thread-instructions, [0-9]* warp-instructions\).*/\1/p' <<<"$1"; }
front=$(run --grid 2 --block 1 "${K[@]}" 2.5 1 2 3 4 -5 2>&1) || bad "options first: $front"
for order in "after" "among"; do
    if [ $order = after ]; then out=$(run "${K[@]}" 2.5 1 2 3 4 -5 --grid 2 --block 1 2>&1)
    else out=$(run "$elf" --grid 2 kinds --block 1 iota:8 2.5 1 2 3 4 -5 2>&1); fi
    if [ $? -eq 0 ] && [[ "$out" == *"arg 1: 2.5 0 2 3 4 -5 1 7"* ]] && [ -n "$(stats "$out")" ] &&
       [ "$(stats "$out")" = "$(stats "$front")" ]; then ok "options $order the arguments, a negative one last"
    else bad "options $order the arguments: $out (with them first: $front)"; fi
done
refuse "unknown option at the end" "unknown option '--gird'"   -- "$ws" run "${K[@]}" 1.5 1 2 3 4 5 --gird 2
refuse "option at the end without its value" "--grid needs a value" -- "$ws" run "${K[@]}" 1.5 1 2 3 4 5 --grid
# what is missing is named, with the usage after it (exit status 2)
for missing in "KERNEL" "MODULE"; do
    if [ $missing = KERNEL ]; then out=$("$ws" run --grid 2 "$elf" 2>&1); rc=$?
        want="warpscope run: no KERNEL given: name the kernel to launch after MODULE.elf"
    else out=$("$ws" run --grid 2 2>&1); rc=$?; want="warpscope run: no MODULE.elf and KERNEL given"; fi
    [ $rc -eq 2 ] && [ "$(head -1 <<<"$out")" = "$want" ] && [[ "$out" == *"usage: warpscope run"* ]] &&
        ok "no $missing: named, then the usage" || bad "no $missing (rc $rc): $out"
done
refuse "unknown option"       "unknown option '--gird'"          -- "$ws" run --gird 2 "${K[@]}" 1.5 1 2 3 4 5

# every type the launch API accepts works, typedefs resolved
out=$(run "${K[@]}" 2.5 0x123456789abcdef0 -7 200 0.125 -2147483648 2>&1) || bad "kinds run failed: $out"
[[ "$out" == *"arg 1: 2.5 1193046 -7 200 0.125 -2.14748365e+09 57072 7"* ]] && ok "typedef'd float/pointer, u64, short, uchar, double, int" ||
    bad "kinds values: $out"
# numbers are decimal or 0x hex; a leading zero is not octal (010 was 8, 08 refused)
out=$(run "${K[@]}" 2.5 0x10000000000 010 08 -010 -0x10 2>&1) || bad "leading zeros refused: $out"
[[ "$out" == *"arg 1: 2.5 1 10 8 -10 -16 0 7"* ]] && ok "leading zeros are decimal, 0x is hex" ||
    bad "leading zeros / hex: $out"
refuse "'0x' alone"           "'0x' is not a whole number"       -- "$ws" run "${K[@]}" 1.5 1 2 0x 4 5
refuse "leading space"        "' 5' is not a whole number"       -- "$ws" run "${K[@]}" 1.5 1 2 3 4 " 5"
# zeros:N is N elements of the pointee's type (the help said 32-bit ones)
out=$(run --block 3 "$elf" unsigned_out zeros:3 zeros:3 zeros:3 2>&1) &&
    [[ "$out" == *"arg 1: 4294967295 4294967294 4294967293"* && "$out" == *"arg 2: 200 201 202"* ]] &&
    ok "zeros:N of bytes and words" || bad "zeros:N element sizes: $out"
out=$("$ws" run --help 2>&1); [[ "$out" == *"N elements of the pointee's type"* ]] && ok "run --help on zeros:N" ||
    bad "run --help: $out"
out=$(run --block 1 "$elf" wide zeros:1 $(seq 1 40) 2>&1) && [[ "$out" == *"arg 1: 820"* ]] &&
    ok "40 long long arguments (72 stack words)" || bad "40 long long arguments: $out"
args=$(seq 1 39)
out=$(run "$elf" forty zeros:1 $args 2>&1) && [[ "$out" == *"arg 1: 780"* ]] && ok "40 arguments" || bad "40 arguments: $out"
out=$(run "$elf" doubles iota:4 iota:4 2>&1) && [[ "$out" == *"arg 1: 0 2 4 6"* && "$out" == *"arg 2: -1 0 1 2"* ]] &&
    ok "double and long long buffers" || bad "64-bit buffers: $out"

# item 9: the module reader's limits, for info and disasm too
for c in info disasm; do
    refuse "$c /dev/zero"       "not an ELF file (bad magic)"      -- "$ws" $c /dev/zero
    refuse "$c directory"       "is a directory"                   -- "$ws" $c "$dir"
done
refuse "run directory"          "is a directory"                   -- "$ws" run "$dir" kinds

# warpscope show: strict --width (5x was 5, 4294967297 wrapped to 1), a
# truncated PNG said libpng's bare "Read Error"
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0' > "$dir/truncated.png"
refuse "show --width 5x"        "--width 5x: give a whole number of columns from 1 to 1000" -- "$ws" show --width 5x "$dir/truncated.png"
refuse "show --width wraps"     "--width 4294967297: give a whole number" -- "$ws" show --width 4294967297 "$dir/truncated.png"
refuse "show truncated PNG"     "truncated.png: Read Error (the PNG is truncated or not readable)" -- "$ws" show "$dir/truncated.png"
# an odd number of rows: the last one is drawn too, over the terminal's
# background (a 1x3 image showed red and green only, before 2026-11-28)
python3 -c 'import struct, sys, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
rows = b"".join(b"\0" + bytes(c) for c in ((255, 0, 0), (0, 255, 0), (0, 0, 255)))
sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 3, 8, 2, 0, 0, 0))
                        + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))' > "$dir/rgb1x3.png"
out=$("$ws" show "$dir/rgb1x3.png" 2>&1)
want=$(printf '\033[38;2;255;0;0m\033[48;2;0;255;0m\u2580\033[0m\n\033[38;2;0;0;255m\033[49m\u2580\033[0m\n%s: 1x3' "$dir/rgb1x3.png")
[ "$out" = "$want" ] && ok "show: an odd last row" || bad "show: an odd last row: $(cat -v <<< "$out")"

# item 11: unwritable outputs fail. The directory is a regular file, so
# the paths cannot be written by root either (/nonexistent, which these
# once used, is only missing by convention: root may create it, and it is
# the nobody account's home directory)
notadir="$dir/not-a-dir"; : > "$notadir"
refuse "profile --json unwritable" "$notadir/x.json: cannot write"   -- "$ws" profile -q --json "$notadir/x.json" -- "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "profile --trace unwritable" "$notadir/t.json"                -- "$ws" profile -q --trace "$notadir/t.json" -- "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "profile --report unwritable" "$notadir/r.txt"                -- "$ws" profile -q --report "$notadir/r.txt" -- "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "trace --warp without perfetto" "--warp 3 picks the warp --format perfetto shows; --format jsonl prints every warp" -- "$ws" trace --read "$notadir" --format jsonl --warp 3
# options the chosen tool does not use are refused (exit 2) before the
# program runs, as --warp without perfetto is (they were accepted and did
# nothing: --format jsonl with memtrace, --values with bbcount)
refuse2() { # refuse2 WHAT EXACT-MESSAGE -- COMMAND...: exit 2, that line alone on stderr, the program not run
    local what=$1 want=$2; shift 3
    rm -f "$dir/ran"
    local out; out=$(timeout 20 "$@" 2>&1); local rc=$?
    if [ $rc -eq 2 ] && [ "$out" = "$want" ] && [ ! -e "$dir/ran" ]; then ok "$what"; else bad "$what (rc $rc): $out"; fi
}
ran=(-- bash -c ": > '$dir/ran'")
refuse2 "trace --format jsonl with memtrace" "warpscope trace: --format jsonl is how --read and --tool dump print records; --tool memtrace prints a report (keep its records with -o FILE, then print them with --read FILE --format jsonl)" -- "$ws" trace --tool memtrace --format jsonl "${ran[@]}"
refuse2 "trace --format perfetto with branch" "warpscope trace: --format perfetto is how --read and --tool dump print records; --tool branch prints a report (keep its records with -o FILE, then print them with --read FILE --format perfetto)" -- "$ws" trace --tool branch --format perfetto --warp 1 "${ran[@]}"
refuse2 "trace --values with bbcount" "warpscope trace: --values keeps the value each store and atomic writes in its memory record; --tool bbcount records no accesses (memtrace, branch, racecheck and dump do)" -- "$ws" trace --values --tool bbcount -o "$dir/v.wst" "${ran[@]}"
refuse2 "trace --values without -o" "warpscope trace: --values keeps the values in the records, which the report of --tool racecheck does not show: add -o FILE (then --read FILE prints them), or use --tool dump" -- "$ws" trace --tool racecheck --values "${ran[@]}"
refuse2 "trace --test-short with bbcount" "warpscope trace: --test-short 5 shortens the recording pass's buffers; --tool bbcount runs no recording pass" -- "$ws" trace --tool bbcount --test-short 5 "${ran[@]}"
# what the tool uses still runs: --format text (the default) with memtrace, --values with -o, with dump
out=$("$ws" trace --tool memtrace --format text --values -o "$dir/v.wst" -- "$ws" run "${K[@]}" 1 1 2 3 4 5 2>&1) &&
    [[ "$out" == *"warpscope trace (memtrace): 1 launch traced"* ]] && ok "trace --format text --values -o with memtrace" ||
    bad "trace --format text --values -o with memtrace: $out"
out=$("$ws" trace --tool dump --values --format jsonl -- "$ws" run "${K[@]}" 1 1 2 3 4 5 2>&1) &&
    [[ "$out" == *'"access":"store"'*'"value":"0x'* ]] && ok "trace --values --format jsonl with dump" ||
    bad "trace --values --format jsonl with dump: $out"
refuse "instrument -o unwritable" "$notadir/i.elf: its directory $notadir is not a directory (a file is in the path)" -- "$ws" instrument "${K[0]}" -o "$notadir/i.elf"
refuse "debug --port-file unwritable" "$notadir/port"                 -- "$ws" debug --port-file "$notadir/port" -- "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "debug --socket with --port" "not with --port"                -- "$ws" debug --socket "$dir/s" --port 5 -- "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "debug --socket with --jtag" "not with --jtag"                -- "$ws" debug --jtag --socket "$dir/s" -- "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "debug --socket empty" "needs a path"                             -- "$ws" debug --socket "" -- "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "debug --threads with a bad view" "lane or warp"             -- "$ws" debug --threads lanes -- "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "debug --threads with --jtag" "is for the gdb server"        -- "$ws" debug --jtag --threads warp -- "$ws" run "${K[@]}" 1 1 2 3 4 5
# a bad --record=FRAMES is refused before the program runs, naming the option
# (it was refused by the recorder, after which the command said the program
# "left no recording" though it never ran)
out=$("$ws" debug --record=xyz -- "$ws" run "${K[@]}" 1 1 2 3 4 5 2>&1); rc=$?
[ $rc = 2 ] && [[ "$out" == *"--record=xyz: frames 'xyz': expected N, A-B"* ]] && [[ "$out" != *"left no recording"* ]] &&
    ok "debug --record with bad frames" || bad "debug --record=xyz (rc $rc): $out"
refuse "WARPSCOPE_DEBUG threads=lanes" "threads=lane|warp"            -- env WARPSCOPE_DEBUG=threads=lanes "$ws" run "${K[@]}" 1 1 2 3 4 5
# the refused setting is named with its value, and the limit it broke
refuse "WARPSCOPE_DEBUG port=99999" "cannot use 'port=99999' (expected port=N (0-65535)" -- env WARPSCOPE_DEBUG=port=99999 "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "WARPSCOPE_DEBUG stop-at-launch=2" "cannot use 'stop-at-launch=2' (expected" -- env WARPSCOPE_DEBUG=stop-at-launch=2 "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "WARPSCOPE_DEBUG socket too long" "at most 107 bytes"          -- env WARPSCOPE_DEBUG=socket=/tmp/$(printf 'x%.0s' $(seq 120)) "$ws" run "${K[@]}" 1 1 2 3 4 5
refuse "WARPSCOPE_DEBUG port and socket" "port=1234 and socket=/tmp/x.sock: the server listens on a TCP port or on a Unix-domain socket, not both" -- env WARPSCOPE_DEBUG=port=1234,socket=/tmp/x.sock "$ws" run "${K[@]}" 1 1 2 3 4 5

# a program that opens no device: the exit status is its own, and the
# command says nothing was served (before 2026-11-27 it ended silently)
for mode in "" --jtag; do
    out=$("$ws" debug $mode -- /bin/sh -c 'exit 3' 2>&1); rc=$?
    [ $rc -eq 3 ] && [[ "$out" == *"sh opened no warpscope device: no "*" was served"* ]] &&
        ok "debug $mode: a program without a device is named (status 3)" || bad "debug $mode without a device: rc=$rc: $out"
done
# a program that cannot be run is named once, as not run (before
# 2026-11-27 the command also said it "opened no warpscope device")
for mode in "" --jtag; do
    out=$("$ws" debug $mode -- "$dir/no-such-program" 2>&1); rc=$?
    [ $rc -eq 127 ] && [[ "$out" == *"cannot run $dir/no-such-program: No such file or directory"* ]] &&
        [[ "$out" != *"opened no warpscope device"* ]] &&
        ok "debug $mode: a missing program is named once (status 127)" || bad "debug $mode, missing program: rc=$rc: $out"
done
# a directory given as a file to read is named as one (before 2026-11-27
# trace --read and watch --read called it a file without their header, and
# show a truncated PNG)
refuse "trace --read a directory" "$dir: cannot read: Is a directory" -- "$ws" trace --read "$dir"
refuse "watch --read a directory" "$dir: cannot read: Is a directory" -- "$ws" watch --read "$dir"
refuse "show a directory" "$dir: is a directory, not a PNG file" -- "$ws" show "$dir"
# item 11: warpscope debug killed by SIGTERM leaves no temporary file
# (the port file from an earlier run of this test is removed first: found
# there, it sent SIGTERM at once, before the server listened)
tmpd="$dir/tmp-debug"; rm -rf "$tmpd" "$dir/port"; mkdir -p "$tmpd"
TMPDIR="$tmpd" "$ws" debug --port-file "$dir/port" -- "$ws" run "${K[@]}" 1 1 2 3 4 5 >/dev/null 2>&1 &
dbg=$!
for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.1; done
[ -s "$dir/port" ] && ok "debug: listening" || bad "debug: never listened"
kill -TERM $dbg
for _ in $(seq 100); do kill -0 $dbg 2>/dev/null || break; sleep 0.1; done
kill -0 $dbg 2>/dev/null && { bad "debug: still running after SIGTERM"; kill -KILL $dbg; }
wait $dbg 2>/dev/null
[ -z "$(ls -A "$tmpd")" ] && ok "debug: SIGTERM leaves no temporary file" || bad "debug: left $(ls "$tmpd")"

out=$(run --block 2 "$elf" unsigned_out zeros:2 zeros:2 zeros:2 2>&1)
[[ "$out" == *"arg 1: 4294967295 4294967294"* && "$out" == *"arg 2: 200 201"* && "$out" == *"arg 3: 250 251"* ]] &&
    ok "unsigned buffers print unsigned" || bad "unsigned buffers: $out"

out=$("$ws" disasm "$elf" 2>&1)
[[ "$out" == *"<calls_helper>:"* && "$out" == *"<twice_plus_one>:"* ]] && ok "disasm labels static functions" ||
    bad "disasm labels: $(grep '>:' <<<"$out")"

# tool options are checked before the program runs (it ran, its device open
# failed and the command said "opened no warpscope device")
refuse "watch --capacity 0"   "--capacity 0: expected a number of bytes from 64" -- "$ws" watch --capacity 0 -- /bin/echo RAN
refuse "trace --launch 0"     "warpscope trace: --launch 0: expected a number from 1" -- "$ws" trace --tool bbcount --launch 0 -- /bin/echo RAN
# named as the options typed, not as WARPSCOPE_TRACE's keys (launch=0, counters=16, short=x)
refuse "trace --counters 16"  "warpscope trace: --counters 16: expected 32" -- "$ws" trace --tool bbcount --counters 16 -- /bin/echo RAN
refuse "trace --test-short x" "warpscope trace: --test-short x: expected a number" -- "$ws" trace --tool bbcount --test-short x -- /bin/echo RAN
out=$("$ws" watch --capacity 0 -- /bin/echo RAN 2>&1); [[ "$out" != *RAN* ]] && ok "watch: program not run" || bad "watch ran it: $out"

# a module without DWARF: the reason, not "takes 0 arguments"
src=$(dirname "$0")/cli_kernels.c
if "$ws" cc -g0 -o "$dir/g0.elf" "$src" > "$dir/g0.log" 2>&1; then
    refuse "kernel without DWARF" "no parameter information (DWARF)" -- "$ws" run "$dir/g0.elf" kinds iota:8 1.5 1 2 3 4 5
else
    bad "cc -g0: $(cat "$dir/g0.log")"
fi
# an assembly kernel has no DWARF whatever the flags: the message said to
# rebuild without -g0, which it had been
printf '    .section .ws_kernels,"ax",@progbits\n    .globl asm_k\n    .type asm_k,@function\nasm_k:\n    ret\n    .size asm_k, .-asm_k\n' > "$dir/asm_k.S"
if "$ws" cc -o "$dir/asm_k.elf" "$dir/asm_k.S" > "$dir/asm.log" 2>&1; then
    refuse "assembly kernel without DWARF" "a kernel written in assembly has none: call it from a C kernel" -- "$ws" run "$dir/asm_k.elf" asm_k
else
    bad "cc asm: $(cat "$dir/asm.log")"
fi

# an option left without its value does not take the "--" that starts the
# program's command line (profile --json -- PROG wrote the profile to a
# file named "--", capture -o -- PROG the capture)
pushd "$dir" > /dev/null
rm -f -- ./--
for c in "capture -o" "profile --json" "profile --report" "profile --trace" "trace -o" "trace --report" \
         "trace --kernel" "watch -o" "watch --events"; do
    refuse "$c without its value" "needs a" -- "$ws" $c -- true
done
[ -e ./-- ] && bad "a file named -- was written" || ok "no file named --"
popd > /dev/null

# TMPDIR that cannot hold the commands' temporary files: the message names
# the directory and the variable (it was "temporary directory: Permission
# denied" / "cannot make a temporary file: ..." with neither); a regular file
# stands in for a read-only directory, which root could write
: > "$dir/tmp-is-a-file"
for c in "trace --tool bbcount" "profile" "watch --stats" "debug"; do
    refuse "$c, TMPDIR not a directory" "cannot make a temporary" -- env TMPDIR="$dir/tmp-is-a-file" "$ws" $c -- /bin/true
    out=$(TMPDIR="$dir/tmp-is-a-file" "$ws" $c -- /bin/true 2>&1)
    [[ "$out" == *"in $dir/tmp-is-a-file (from \$TMPDIR): Not a directory"* ]] && ok "$c: names TMPDIR's directory" ||
        bad "$c, TMPDIR not a directory: $out"
done
# TMPDIR with a comma is not used (the commands pass paths in comma-separated
# settings): warpscope debug's port file broke WARPSCOPE_DEBUG ("cannot use
# 'b/warpscope-debug-...'") and the program could not open its device
mkdir -p "$dir/tmp,comma"
# (-k 5: under the sanitizers the SIGTERMed command's LeakSanitizer exit
# check can hang, holding this pipe, as in cli.comma_paths)
out=$(TMPDIR="$dir/tmp,comma" timeout -k 5 3 "$ws" debug -- "$ws" run "$elf" calls_helper zeros:32 2>&1)
[[ "$out" == *"listening on 127.0.0.1:"* && "$out" != *"cannot use"* ]] && ok "debug: TMPDIR with a comma" ||
    bad "debug, TMPDIR with a comma: $out"

# every command the top-level help lists answers --help (show did not), on
# stdout, so `| less` shows it (replay's went to stderr)
for c in $("$ws" --help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
    [ "$c" = version ] && continue
    out=$("$ws" "$c" --help 2>/dev/null) && [[ "$out" == *usage* ]] && ok "$c --help" || bad "$c --help: $out"
done

# the top-level help names every tool of trace and every mode of replay
top=$("$ws" --help)
for t in $("$ws" trace --help | sed -n 's/^  --tool \([a-z]*\) .*/\1/p'); do
    [[ "$(grep '^  trace ' <<< "$top")" == *"$t"* ]] && ok "--help names trace's $t" || bad "--help lacks trace's $t: $top"
done
for m in pixel mesh report; do
    [[ "$(grep '^  replay ' <<< "$top")" == *"$m"* ]] && ok "--help names replay's $m" || bad "--help lacks replay's $m"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
