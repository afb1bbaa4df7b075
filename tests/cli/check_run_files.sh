#!/usr/bin/env bash
# usage: check_run_files.sh WARPSCOPE VECADD_KERNEL_SOURCE STRUCT_KERNELS_SOURCE WORKDIR BYVAL_KERNELS_SOURCE
# warpscope run's file:PATH buffers (the file's bytes, whole elements of
# the pointee's type) and --save DIR (each buffer's bytes after the run,
# DIR/argN.bin): vecadd on inputs from files gives the sums, byte for byte;
# a struct buffer round-trips; bad files and directories are refused with
# the reason, before anything runs. A struct by value takes file:PATH of
# exactly its bytes.
set -u
ws=$1 vecsrc=$2 structsrc=$3 dir=$4 byvalsrc=$5
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
"$ws" cc -o va.elf "$vecsrc" && "$ws" cc -o s.elf "$structsrc" && "$ws" cc -o bv.elf "$byvalsrc" ||
    { echo "FAIL: compile"; exit 1; }
python3 - <<'PY'
import struct
n = 1000
a = [i * 0.25 - 3.0 for i in range(n)]
b = [(i * 7919 % 1000) / 8.0 for i in range(n)]
open("a.bin", "wb").write(struct.pack("<%df" % n, *a))
open("b.bin", "wb").write(struct.pack("<%df" % n, *b))
open("want.bin", "wb").write(struct.pack("<%df" % n, *[x + y for x, y in zip(a, b)]))
open("odd.bin", "wb").write(b"abcdef")
open("empty.bin", "wb").write(b"")
# four struct { float x, y; } elements for fill_f2 to overwrite
open("f2.bin", "wb").write(struct.pack("<8f", *[9.0] * 8))
# s_fi { float x; int n; } by value, and s_big { int v[5]; float f; double d; }
open("fi.bin", "wb").write(struct.pack("<fi", 2.5, -17))
open("big.bin", "wb").write(struct.pack("<5ifd", 3, 1, 4, 1, 5, 9.0, 2.0))
PY
out=$("$ws" run --grid 8 --block 128 --save saved va.elf vecadd file:a.bin file:b.bin zeros:1000 1000 2>&1)
[ $? = 0 ] && cmp -s saved/arg3.bin want.bin && ok "vecadd on file inputs: the sums, byte for byte" ||
    bad "vecadd on file inputs: $out; $(ls -l saved 2>&1)"
cmp -s saved/arg1.bin a.bin && cmp -s saved/arg2.bin b.bin && ok "inputs saved unchanged" || bad "inputs saved: $(ls -l saved)"
[ -z "$(ls saved | grep -v '^arg[123]\.bin$')" ] && ok "only the three buffers saved" || bad "saved: $(ls saved)"
[[ "$(head -1 <<<"$out")" == "arg 1: -3 -2.75 -2.5"* ]] && ok "file buffer printed" || bad "printed: $(head -1 <<<"$out")"
# the struct kernel: fill_f2(float2_t *o, int n) writes {i, -i/2}
out=$("$ws" run --block 8 --save saved2 s.elf fill_f2 file:f2.bin 4 2>&1)
python3 -c "
import struct, sys
v = struct.unpack('<8f', open('saved2/arg1.bin', 'rb').read())
sys.exit(0 if v == (0.0, -0.0, 1.0, -0.5, 2.0, -1.0, 3.0, -1.5) else 1)" && ok "struct elements from a file, saved" ||
    bad "struct buffer: $out"
# structs by value from files: in fa and a registers; a per-lane copy
out=$("$ws" run --block 2 bv.elf k_fi zeros:32 file:fi.bin 2>&1)
[[ "$(head -1 <<<"$out")" == "arg 1: 1075838976 -17 "* ]] && ok "struct by value from a file (2.5f, -17)" ||
    bad "k_fi: $out"
out=$("$ws" run --block 2 bv.elf k_big file:big.bin zeros:32 2>&1)
[[ "$(head -1 <<<"$out")" == "arg 2: 3 1 4 1 5 1091567616 0 1073741824 "*" 4 1 4 1 5 "* ]] &&
    ok "a 32-byte struct by value from a file, each lane its own copy" || bad "k_big: $out"

refuse() { # name expected-text args...
    local name=$1 want=$2; shift 2
    local o
    o=$("$@" 2>&1)
    local r=$?
    [ $r -ne 0 ] && [[ "$o" == *"$want"* ]] && ok "$name" || bad "$name: exit $r: $o"
}
refuse "part of an element" "file:odd.bin: 6 bytes, not a whole number of elements; an element is 4 bytes" \
    "$ws" run va.elf vecadd file:odd.bin file:b.bin zeros:10 10
refuse "empty file" "file:empty.bin: 0 bytes" "$ws" run va.elf vecadd file:empty.bin file:b.bin zeros:10 10
refuse "missing file" "file:nope.bin: No such file or directory" "$ws" run va.elf vecadd file:nope.bin file:b.bin zeros:10 10
refuse "a directory" "file:.: not a regular file" "$ws" run va.elf vecadd file:. file:b.bin zeros:10 10
mkfifo fifo
refuse "a FIFO, without waiting for a writer" "file:fifo: not a regular file" \
    timeout 20 "$ws" run va.elf vecadd file:fifo file:b.bin zeros:10 10
refuse "no path" "file:PATH needs a path" "$ws" run va.elf vecadd file: file:b.bin zeros:10 10
refuse "--save onto a file" "--save a.bin: not a directory" "$ws" run --save a.bin va.elf vecadd file:a.bin file:b.bin zeros:1000 1000
refuse "--save under a missing directory" "--save no/such: No such file or directory" \
    "$ws" run --save no/such va.elf vecadd file:a.bin file:b.bin zeros:1000 1000
refuse "a struct from a file of another size" "file:big.bin: 32 bytes; the struct is 8" \
    "$ws" run bv.elf k_fi zeros:32 file:big.bin
refuse "a struct from a number" "'7': a struct by value takes file:PATH, a file of its 8 bytes" \
    "$ws" run bv.elf k_fi zeros:32 7
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
