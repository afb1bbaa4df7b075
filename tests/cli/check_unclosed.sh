#!/bin/bash
# A program that returns from main without closing its device still gets
# its profile, trace and event trace (the tool commands preload
# libwarpscope_exitclose.so, which closes such devices at exit); one that
# ends by _exit, which runs no exit handler, is told why it got none. The
# same program linked with the static library, which the closer cannot
# reach, gets none either, and is told why and what to do (until
# 2026-11-27 it was told only that it did not close its device).
#   usage: check_unclosed.sh WARPSCOPE UNCLOSED_APP CLI_KERNELS.elf WORKDIR UNCLOSED_APP_STATIC
set -uo pipefail
ws=$1 app=$2 elf=$3 work=$4 sapp=$5
mkdir -p "$work" && cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
# (the device is not closed by the program: LeakSanitizer must not count
# what _exit leaves)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

"$ws" profile --json p.json -- "$app" "$elf" return > p.txt 2>&1; rc=$?
[ $rc = 0 ] && grep -q "calls_helper" p.txt && [ -s p.json ] && ok || { bad "profile of a program that returns (rc $rc)"; cat p.txt; }
grep -q "without closing" p.txt && bad "profile still says the device was not closed" || ok
"$ws" trace --tool bbcount -o t.wst -- "$app" "$elf" return > t.txt 2>&1; rc=$?
[ $rc = 0 ] && grep -q "1 launch traced" t.txt && [ -s t.wst ] && ok || { bad "trace of a program that returns (rc $rc)"; cat t.txt; }
"$ws" watch -o w.wsev -- "$app" "$elf" return > w.txt 2>&1; rc=$?
[ $rc = 0 ] && [ -s w.wsev ] && ok || { bad "watch of a program that returns (rc $rc)"; cat w.txt; }

"$ws" profile -- "$app" "$elf" _exit > e.txt 2>&1; rc=$?
[ $rc = 1 ] && grep -q "opened a warpscope device but ended without closing it" e.txt && ok ||
    { bad "profile of a program that ends by _exit (rc $rc)"; cat e.txt; }
"$ws" trace --tool bbcount -- "$app" "$elf" _exit > e2.txt 2>&1; rc=$?
[ $rc = 1 ] && grep -q "did not close it" e2.txt && ok || { bad "trace of a program that ends by _exit (rc $rc)"; cat e2.txt; }
cat e.txt e2.txt | grep -q "static library" && bad "a program linked with the shared library told about the static one" || ok

why="$sapp has libwarpscope linked in (the static library), which the exit closer cannot reach: if it opened a device, it must close it (ws_device_close) before main returns, or be linked with libwarpscope.so."
"$ws" profile -- "$sapp" "$elf" return > s.txt 2>&1; rc=$?
[ $rc = 1 ] && grep -q "ended without closing it" s.txt && grep -qxF "warpscope profile: $why" s.txt && ok ||
    { bad "profile of a statically linked program that returns (rc $rc)"; cat s.txt; }
"$ws" trace --tool bbcount -- "$sapp" "$elf" return > s2.txt 2>&1; rc=$?
[ $rc = 1 ] && grep -qxF "warpscope trace: $why" s2.txt && ok || { bad "trace of a statically linked program that returns (rc $rc)"; cat s2.txt; }
"$ws" watch -- "$sapp" "$elf" return > s3.txt 2>&1; rc=$?
[ $rc = 1 ] && grep -qxF "warpscope watch: $why" s3.txt && ok || { bad "watch of a statically linked program that returns (rc $rc)"; cat s3.txt; }
# one that ends before it opens a device is not told it left one open
"$ws" watch -- "$sapp" > s4.txt 2>&1; rc=$?
[ $rc = 2 ] && grep -q "if it opened a device" s4.txt && ! grep -q "Close the device" s4.txt && ok ||
    { bad "watch of a statically linked program that opens no device (rc $rc)"; cat s4.txt; }
echo "$pass passed, $fail failed"
[ $fail = 0 ]
