#!/usr/bin/env bash
# usage: check_fault_lines.sh WARPSCOPE MODULE.elf SOURCE.c WORKDIR
set -u
ws=$1 elf=$2 src=$3 dir=$4
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
line_of() { grep -n "$1" "$src" | head -1 | cut -d: -f1; }
inl=$(line_of FAULT_LINE_INLINED) call=$(line_of CALL_LINE) direct=$(line_of FAULT_LINE_DIRECT)
name=$(basename "$src")
has() { case "$1" in *"$2"*) ok "$3";; *) bad "$3: '$2' not in: $1";; esac; }

out=$("$ws" run --grid 1 --block 32 "$elf" bad_store zeros:32 2>&1) && bad "bad_store did not fail"
has "$out" "$name:$inl in store_at" "run: inlined fault names the helper's line"
has "$out" "inlined at $src:$call" "run: and the call site in the kernel"
has "$out" "thread (5,0,0)" "run: and the thread"

out=$("$ws" run --grid 1 --block 32 "$elf" bad_load zeros:32 32 2>&1) && bad "bad_load did not fail"
has "$out" "$name:$direct in bad_load" "run: fault in the kernel's own line"

# A fault inside a library function names the calls that led there, up
# to the kernel's line; also a bad function pointer, and a recursion.
libl=$(line_of LIB_CALL_LINE) fillc=$(line_of FILL_CALL_LINE) badc=$(line_of BAD_CALL_LINE)
trapl=$(line_of TRAP_LINE) recl=$(line_of RECURSE_LINE) recc=$(line_of RECURSE_CALL_LINE)
out=$("$ws" run --grid 1 --block 32 "$elf" lib_call zeros:32 2>&1) && bad "lib_call did not fail"
has "$out" "in memset, called from $src:$libl in fill, called from $src:$fillc in lib_call" \
    "run: fault in memset names its caller and the kernel's line"
out=$("$ws" run --grid 1 --block 32 "$elf" bad_pointer zeros:32 2>&1) && bad "bad_pointer did not fail"
has "$out" "pc 0x00000040, called from $src:$badc in bad_pointer" "run: a bad function pointer names the call"
out=$("$ws" run --grid 1 --block 32 "$elf" recurse zeros:32 2>&1) && bad "recurse did not fail"
has "$out" "in ws_trap, called from $src:$trapl in down, called from $src:$recl in down (6 times), called from $src:$recc in recurse" \
    "run: a trap in a recursion: its caller, the recursion counted, the kernel's line"
# A tail call (-O2: scaled jumps to tail_victim): scaled's frame is gone,
# which is right; the report names tail_victim's line, then the kernel's
# call, and neither names scaled nor leaves out tail_victim.
tfl=$(line_of TAIL_FAULT_LINE) tcl=$(line_of TAIL_CALL_LINE)
out_tail=$("$ws" run --grid 1 --block 32 "$elf" tail_call zeros:32 2>&1) && bad "tail_call did not fail"
has "$out_tail" "$name:$tfl in tail_victim, called from $src:$tcl in tail_call" \
    "run: a fault after a tail call names the function jumped to and the kernel's call"
case "$out_tail" in *scaled*) bad "run: the tail-calling function is named: $out_tail";; *) ok "run: the tail-calling function is not named";; esac
ktl=$(line_of KERNEL_TAIL_FAULT_LINE)
out_tail=$("$ws" run --grid 1 --block 32 "$elf" kernel_tail zeros:32 2>&1) && bad "kernel_tail did not fail"
has "$out_tail" "kernel 'kernel_tail'" "run: a kernel that tail-calls is named in the header"
case "$out_tail" in
  *"$name:$ktl in tail_store") ok "run: a kernel's tail call: the report ends at the function jumped to";;
  *) bad "run: a kernel's tail call: $out_tail";;
esac
# the same report on every engine and host thread count, in timing mode too
for c in engine=interp threads=2 mode=timing; do
  again=$("$ws" run --config $c --grid 1 --block 32 "$elf" recurse zeros:32 2>&1)
  [ "$again" = "$out" ] && ok "run --config $c: the same report" || bad "run --config $c: $again"
done

# The profiler's report and JSON carry the same report for the failed launch.
"$ws" profile -q --json "$dir/fl.json" --report "$dir/fl.txt" -- "$ws" run --grid 1 --block 32 "$elf" bad_store zeros:32 \
    >/dev/null 2>&1
err=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['devices'][0]['launches'][0]['error'])" \
      "$dir/fl.json" 2>&1)
has "$err" "$name:$inl in store_at" "profile JSON: launch error names the line"
has "$(cat "$dir/fl.txt" 2>/dev/null)" "$name:$inl" "profile report: names the line"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
