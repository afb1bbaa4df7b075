#!/bin/bash
# The tracer end to end (issue 9): on every example, the tools' counts equal
# the device's own counters exactly, every trace is complete with buffers
# filled to the computed size, two runs write byte-identical files, and bad
# trace files get a clear error.
# Usage: check_trace.sh WARPSCOPE EXAMPLES_DIR WORKDIR [EXAMPLE...]
#   with examples: only the per-example checks, on those; without: the rest.
#   TRACE_QUICK=1 (the sanitizer build): bitonic is counted with bbcount, as
#   memtrace on bitonic takes minutes there; the plain build runs it, the
#   sanitizers see the same tool code on the other examples.
set -u
ws=$1 ex=$2 work=$3
shift 3
only=("$@")
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

check_report() { # name tool report-file exit-status
    local name=$1 tool=$2 rep=$3 rc=$4
    [ "$rc" = 0 ] || { bad "$name ($tool): exit status $rc"; sed -n 1,40p "$rep"; return; }
    grep -q "MISMATCH" "$rep" && { bad "$name ($tool): a count differs from the device's"; grep MISMATCH "$rep"; return; }
    grep -q "INCOMPLETE\|FAULTED" "$rep" && { bad "$name ($tool): trace incomplete"; grep -A2 "INCOMPLETE\|FAULTED" "$rep"; return; }
    local launches matches
    launches=$(grep -c "^launch " "$rep")
    matches=$(grep -c "instructions executed.*(match)" "$rep")
    [ "$launches" -gt 0 ] && [ "$launches" = "$matches" ] || { bad "$name ($tool): $matches of $launches launches match"; return; }
    matches=$(grep -c "results: the instrumented run left global memory identical" "$rep")
    [ "$launches" = "$matches" ] || { bad "$name ($tool): results identical in $matches of $launches launches"; return; }
    if [ "$tool" = memtrace ] || [ "$tool" = dump ]; then
        matches=$(grep -c "accesses: .*(match)" "$rep")
        [ "$launches" = "$matches" ] || { bad "$name ($tool): memory counts match in $matches of $launches launches"; return; }
    fi
    # every tool's report has the instruction mix, its memory kinds from the
    # block counts alone, checked against the device's counters
    matches=$(grep -c "^  memory instructions (over lanes): .*(match)" "$rep")
    [ "$launches" = "$matches" ] || { bad "$name ($tool): the mix's memory counts match in $matches of $launches launches"; return; }
    # the opcode table adds up to the instructions executed (its rows are the top 10: at most)
    python3 - "$rep" <<'PY' || { bad "$name ($tool): instruction mix"; return; }
import re, sys
for part in open(sys.argv[1]).read().split("\nlaunch ")[1:]:
    total = int(re.search(r"instructions executed \(over lanes\): (\d+);", part).group(1))
    kinds = [float(x) for x in re.findall(r"[a-z)] (\d+\.\d)%", part.split("instruction mix (over lanes):")[1].split("\n")[0])]
    assert len(kinds) == 7 and abs(sum(kinds) - 100.0) < 0.5, kinds
    rows = re.findall(r"^    \S+ +(\d+) +\d+\.\d%$", part.split("opcodes by instructions executed:")[1], re.M)
    assert rows and sum(int(r) for r in rows) <= total and int(rows[0]) >= int(rows[-1]), (rows, total)
PY
    ok
}

for e in "${only[@]}"; do
    tool=memtrace
    [ "$e" = matmul ] && tool=bbcount # memtrace on matmul takes 12 s: the demo runs it
    [ "$e" = bitonic ] && [ -n "${TRACE_QUICK:-}" ] && tool=bbcount
    (cd "$work" && "$ws" trace --tool $tool --report "$work/$e.txt" -- "$ex/$e/$e" > "$work/$e.out" 2>&1)
    check_report "$e" $tool "$work/$e.txt" $?
done

if [ ${#only[@]} -gt 0 ]; then
    echo "$pass passed, $fail failed"
    [ $fail = 0 ]
    exit
fi

# the branch tool (warp records): counts still exact, results identical,
# divergence found where mandelbrot's escape loop splits warps (its kernel
# on a 128 x 96 image, 64 iterations: the example's 640 x 480 and 256 take
# 30 times as long for the same finding)
(cd "$work" && "$ws" trace --tool branch --report "$work/breduction.txt" -- "$ex/reduction/reduction" > "$work/breduction.out" 2>&1)
check_report reduction branch "$work/breduction.txt" $?
(cd "$work" && "$ws" trace --tool branch --report "$work/bmandelbrot.txt" -- "$ws" run --grid 8,6 --block 16,16 \
    "$ex/mandelbrot/mandelbrot_kernel.elf" mandelbrot zeros:12288 128 96 -2.0 -1.2 0.025 0.025 64 > "$work/bmandelbrot.out" 2>&1)
check_report mandelbrot branch "$work/bmandelbrot.txt" $?
awk '/mandelbrot_kernel.c:14/ && $NF+0 > 0 { found = 1 } END { exit !found }' "$work/bmandelbrot.txt" && ok ||
    bad "branch: no divergence reported at mandelbrot_kernel.c:14"
# a launch with no conditional branch (the cube's fragment shader) says so,
# rather than the table's heading and legend with no row under them
(cd "$work" && "$ws" trace --tool branch --kernel cube_fs --launch 2 --report "$work/bcube.txt" -- "$ex/cube/cube" 1 \
    > "$work/bcube.out" 2>&1)
check_report "cube_fs" branch "$work/bcube.txt" $?
# a shader launch names its stage and draw, as the profiler does (it was
# the shader's name and a one-dimensional grid alone)
grep -q "^launch 2: cube_fs (cube_kernel.elf) (fragment shader of draw 0) grid (" "$work/bcube.txt" && ok ||
    { bad "branch: the shader launch does not name its stage and draw"; grep "^launch" "$work/bcube.txt"; }
(cd "$work" && "$ws" trace --tool bbcount --launch 1 --report "$work/vcube.txt" -- "$ex/cube/cube" 1 > "$work/vcube.out" 2>&1)
grep -q "^launch 1: cube_vs (cube_kernel.elf) (vertex shader of draw 0) grid (" "$work/vcube.txt" && ok ||
    { bad "bbcount: the vertex shader launch does not name its stage and draw"; grep "^launch" "$work/vcube.txt"; }
# the trace file keeps them (version 4; before, --read printed a shader
# launch as a bare kernel name): both draws of two frames, text and JSON
(cd "$work" && "$ws" trace --tool bbcount -o "$work/cube.wst" -- "$ex/cube/cube" 2 > "$work/fcube.out" 2>&1)
"$ws" trace --read "$work/cube.wst" > "$work/rcube.txt" 2>&1
[ "$(grep -c '^launch [0-9]* cube_vs (cube_kernel.elf) (vertex shader of draw [01]) grid' "$work/rcube.txt")" = 2 ] &&
    grep -q '^launch 4 cube_fs (cube_kernel.elf) (fragment shader of draw 1) grid' "$work/rcube.txt" && ok ||
    { bad "--read does not name the shader stages and draws"; grep "^launch" "$work/rcube.txt"; }
"$ws" trace --read "$work/cube.wst" --format jsonl > "$work/rcube.jsonl" 2>&1
grep -q '^{"launch":4,"kernel":"cube_fs",.*"stage":"fragment","draw":1,"grid"' "$work/rcube.jsonl" && ok ||
    { bad "--read --format jsonl: no stage and draw"; grep '"launch"' "$work/rcube.jsonl"; }
grep -q "^launch 1: reduce_sum (reduction_kernel.elf) grid (" "$work/breduction.txt" && ok ||
    { bad "branch: a compute launch is named otherwise"; grep "^launch" "$work/breduction.txt"; }
grep -q "^  conditional branches: none ran$" "$work/bcube.txt" && ! grep -q "warp-execs\|lanes/ex: active" "$work/bcube.txt" &&
    ok || { bad "branch: a launch without a conditional branch"; sed -n '/^launch/,$p' "$work/bcube.txt"; }
# Warp records are counted exactly by the counting pass even where lanes
# loop long enough, while others wait, for the device's starvation guard
# to act (256 iterations): the guard counts loop turns, which the inserted
# code does not change, so the recording pass needs no second run.
(cd "$work" && "$ws" trace --tool branch --report "$work/bstarve.txt" -- "$ws" run --grid 4,3 --block 16,16 \
    "$ex/mandelbrot/mandelbrot_kernel.elf" mandelbrot zeros:3072 64 48 -2.0 -1.2 0.05 0.05 1024 > "$work/bstarve.out" 2>&1)
check_report "mandelbrot, 1024 iterations" branch "$work/bstarve.txt" $?
if grep -q "STARVE\|other groups" "$work/bstarve.txt"; then bad "branch: the recording pass ran twice"; grep note "$work/bstarve.txt"; else ok; fi

# memtrace's per-line figures, worked out by hand: every lane of a warp in
# one shared-memory bank (31 extra passes a full warp's request, 15 for
# the 16-lane second warp of a 48-thread block), and a global store of
# consecutive words (4 sectors a full warp, 2 a half one: 12 / 4 = 3.00)
stall=$(dirname "$ex")/tests/profiler/stall_kernels.elf
(cd "$work" && "$ws" trace --tool memtrace --report "$work/banks.txt" -- "$ws" run --grid 2 --block 48 "$stall" \
    bank_conflict zeros:96 8 > "$work/banks.out" 2>&1)
check_report "bank_conflict" memtrace "$work/banks.txt" $?
rows=$(awk '$1 ~ /stall_kernels.c:/ && NF == 8 { print $2, $3, $4, $5, $6, $8 }' "$work/banks.txt" | sort)
want=$(printf '%s\n' "load shared 768 32 - 736" "store global 96 4 3.00 -" "store shared 3072 128 - 2944" | sort)
[ "$rows" = "$want" ] && ok || bad "memtrace figures for bank_conflict: got '$rows'"

# Perfetto for one warp: valid JSON, a track per lane
(cd "$work" && "$ws" trace --tool dump -o "$work/g.wst" -- "$ex/gather/gather" > /dev/null 2>&1)
"$ws" trace --read "$work/g.wst" --format perfetto --warp 3 > "$work/g.json" &&
    python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['traceEvents']; sys.exit(not (len(e) > 0 and len({x['tid'] for x in e}) == 32))" "$work/g.json" &&
    ok || bad "perfetto export of warp 3"

# a kernel that faults while traced: records up to the fault, marked, no crash
hard=$(dirname "$ex")/tests/hardening/hard_kernels.elf
(cd "$work" && "$ws" trace --tool memtrace -o "$work/f.wst" --report "$work/f.txt" -- "$ws" run --block 32 "$hard" fault_null zeros:64 > "$work/f.out" 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q "\[FAULTED\]" "$work/f.txt" && grep -q "note: store access fault.*null pointer" "$work/f.txt" &&
   "$ws" trace --read "$work/f.wst" | grep -q "flags 0x42, 1 threads"; then ok; else bad "faulting kernel under trace (rc $rc)"; cat "$work/f.txt"; fi

# store values (--values): add1 on iota:8 stores i + 1 at element i
(cd "$work" && "$ws" trace --tool memtrace --values -o "$work/v.wst" -- "$ws" run --block 32 "$hard" add1 iota:8 8 > /dev/null 2>&1)
"$ws" trace --read "$work/v.wst" > "$work/v.txt" 2>&1
n=$(grep -c "store  4 @.* = 0x0000000[1-8]$" "$work/v.txt")
good=0
for t in 0 1 2 3 4 5 6 7; do
    grep -A2 "^thread $t\$" "$work/v.txt" | grep -q "store  4 @.* = 0x0000000$((t + 1))\$" && good=$((good + 1))
done
[ "$n" = 8 ] && [ "$good" = 8 ] && ok || bad "store values: $n stores with values, $good equal to i + 1"

# deterministic: two runs, byte-identical trace files
for i in 1 2; do
    (cd "$work" && "$ws" trace --tool memtrace -o "$work/h$i.wst" -- "$ex/histogram/histogram" > /dev/null 2>&1)
done
if [ -s "$work/h1.wst" ] && cmp -s "$work/h1.wst" "$work/h2.wst"; then ok; else bad "two traces of histogram differ"; fi

# the reader: the file reads back; its records print in program order
"$ws" trace --read "$work/h1.wst" > "$work/h1.txt" 2>&1 && grep -q "^thread 0$" "$work/h1.txt" && grep -q "atomic 4 @0x" "$work/h1.txt" \
    && ok || bad "--read of a good trace"
(cd "$work" && "$ws" trace --tool dump --format jsonl -- "$ex/gather/gather" > "$work/g.jsonl" 2>&1)
n=$(grep -c '^{"launch":.*"access":"load"' "$work/g.jsonl")
[ "$n" = 65536 ] && ok || bad "dump --format jsonl of gather: $n load records, expected 65536"
# a basic block is "bb" in thread records; "block" is the launch's thread-block shape only
grep -q '^{"launch":.*"thread":[0-9]*,"bb":[0-9]*,"pc":"0x' "$work/g.jsonl" && ! grep -q '"block":[0-9]' "$work/g.jsonl" &&
    grep -q '^{"launch":.*"grid":\[[0-9,]*\],"block":\[[0-9,]*\]' "$work/g.jsonl" && ok ||
    bad "jsonl: basic blocks as \"bb\", the launch's \"block\" as its shape: $(grep -m1 '"thread"' "$work/g.jsonl")"

# the recovery path: buffers made short on purpose overflow; the lanes that
# find them full write nowhere that matters, the tracer measures and re-runs,
# and the trace is still complete, exact and identical to an unforced one
(cd "$work" && "$ws" trace --tool memtrace --test-short 5 -o "$work/short.wst" --report "$work/short.txt" -- "$ex/histogram/histogram" > /dev/null 2>&1)
if grep -q "OVERFLOWED\|re-ran" "$work/short.txt" && ! grep -q "INCOMPLETE" "$work/short.txt" &&
   "$ws" trace --read "$work/short.wst" | sed '1s/flags 0x[0-9a-f]*//' > "$work/short.head" &&
   "$ws" trace --read "$work/h1.wst" | sed '1s/flags 0x[0-9a-f]*//' | cmp -s - "$work/short.head"; then ok
else bad "short buffers: no complete re-run"; sed -n 1,12p "$work/short.txt"; fi

# bad files: clear errors, exit 1, no crash
head -c 100 "$work/h1.wst" > "$work/trunc.wst"
out=$("$ws" trace --read "$work/trunc.wst" 2>&1); rc=$?
[ $rc = 1 ] && [[ "$out" == *"truncated or corrupt"* ]] && ok || bad "truncated trace: rc=$rc: $out"
printf 'not a trace at all, just text long enough to have a header' > "$work/junk.wst"
out=$("$ws" trace --read "$work/junk.wst" 2>&1); rc=$?
[ $rc = 1 ] && [[ "$out" == *"not a warpscope trace file"* ]] && ok || bad "junk trace: rc=$rc: $out"
out=$("$ws" trace --tool nosuch -- /bin/true 2>&1); rc=$?
[ $rc = 2 ] && ok || bad "unknown tool accepted: $out"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
