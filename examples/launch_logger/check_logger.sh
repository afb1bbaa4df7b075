#!/usr/bin/env bash
# usage: check_logger.sh liblaunch_logger.so VECADD LINKED WARPSCOPE VECADD_DIR WORKDIR
# The example tool from the environment (into an example program and into
# the warpscope command), with options, linked in, and a missing library.
set -u
lib=$1 vecadd=$2 linked=$3 ws=$4 vdir=$5 dir=$6
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
has() { case "$1" in *"$2"*) ok "$3";; *) bad "$3: '$2' not in: $1";; esac; }

out=$(WARPSCOPE_TOOL="$lib" "$vecadd" 2>&1) || bad "vecadd failed under the logger"
has "$out" "[launch-logger] launch 1 vecadd grid (4096,1,1) block (256,1,1):" "WARPSCOPE_TOOL: the launch, its grid and block"
has "$out" ", WS_OK" "WARPSCOPE_TOOL: its status"
has "$out" "[launch-logger] module loaded at 0x" "WARPSCOPE_TOOL: the module load"
has "$out" "PASS" "WARPSCOPE_TOOL: results unchanged"

rm -f "$dir/log.txt"
WARPSCOPE_TOOL="$lib=log=$dir/log.txt" "$vecadd" >/dev/null 2>&1 || bad "vecadd failed with log="
has "$(cat "$dir/log.txt" 2>/dev/null)" "[launch-logger] 1 launch" "options: log=FILE"

out=$(WARPSCOPE_TOOL="$lib" "$ws" run --grid 1 --block 4 "$vdir/vecadd_kernel.elf" vecadd iota:4 iota:4 zeros:4 4 2>&1) ||
    bad "warpscope run failed under the logger"
has "$out" "[launch-logger] launch 1 vecadd grid (1,1,1) block (4,1,1)" "the warpscope command loads tools too"

out=$("$linked" "$vdir/vecadd_kernel.elf" 2>&1) || bad "linked program failed"
has "$out" "[launch-logger] launch 1 vecadd grid (4,1,1) block (256,1,1)" "linked in: ws_tool_attach"
has "$out" "linked: PASS" "linked in: results"

# a tool's own failure comes with its words (ws_tool_error): a misspelt
# option is refused, a log that cannot be written named (they were ignored,
# and "returned WS_ERR_IO without a message")
out=$(WARPSCOPE_TOOL="$lib=logg=x" "$vecadd" 2>&1) && bad "a misspelt option was ignored"
has "$out" "launch logger: unknown option 'logg=x' (options: log=FILE)" "a misspelt option is named"
out=$(WARPSCOPE_TOOL="$lib=log=$dir/no/such/dir/log.txt" "$vecadd" 2>&1) && bad "an unwritable log was ignored"
has "$out" "launch logger: cannot write the log $dir/no/such/dir/log.txt: No such file or directory" "an unwritable log is named"

out=$(WARPSCOPE_TOOL=/nonexistent/tool.so "$vecadd" 2>&1) && bad "a missing tool library was ignored"
has "$out" "WARPSCOPE_TOOL: cannot load /nonexistent/tool.so" "a missing tool library is a clear error"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
