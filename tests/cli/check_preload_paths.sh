#!/bin/bash
# The libraries tool commands preload (the capture shim, the exit closer)
# found in a directory whose name has a space or a colon: the dynamic
# loader splits LD_PRELOAD at both, so before 2026-11-27 such a library
# was not loaded ("ERROR: ld.so: object '/path/My' from LD_PRELOAD cannot
# be preloaded") and warpscope capture captured nothing; a build tree or
# an install prefix with a space in its path hit it.
#   usage: check_preload_paths.sh WARPSCOPE CAPTURE_SHIM EXITCLOSE_LIB VECADD UNCLOSED_APP CLI_KERNELS.elf WORKDIR
set -uo pipefail
ws=$1 shim=$2 closer=$3 vecadd=$4 app=$5 elf=$6 work=$7
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" # the unclosed app's device
for d in "lib dir" "lib:dir"; do
    mkdir -p "$d"
    cp "$shim" "$d/libwarpscope_capture.so" && cp "$closer" "$d/libwarpscope_exitclose.so" || exit 1
    out=$(WARPSCOPE_CAPTURE_SHIM="$PWD/$d/libwarpscope_capture.so" "$ws" capture -o "$work/v.wscap" -- "$vecadd" 2>&1); rc=$?
    [ $rc = 0 ] && [ -s "$work/v.wscap" ] && [[ "$out" != *"cannot be preloaded"* ]] && ok ||
        bad "capture with the shim in '$d' (rc $rc): $out"
    rm -f "$work/v.wscap"
    out=$(WARPSCOPE_EXITCLOSE_LIB="$PWD/$d/libwarpscope_exitclose.so" "$ws" trace --tool bbcount -- "$app" "$elf" return 2>&1); rc=$?
    [ $rc = 0 ] && [[ "$out" == *"1 launch traced"* && "$out" != *"cannot be preloaded"* ]] && ok ||
        bad "trace with the exit closer in '$d' (rc $rc): $out"
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
