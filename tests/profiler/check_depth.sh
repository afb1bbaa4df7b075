#!/bin/bash
# Profiler depth (issue 13, items 4, 5, 8): inlined code charged to its
# caller, sampling hygiene (no sample at cycle 0, low-sample warning, an
# unbiased FIFO overflow policy), and errors (faults, no launch, no device,
# unwritable outputs). Kernels: depth_kernels.c, run by `warpscope run`.
# usage: check_depth.sh CASE WARPSCOPE PROF_APP STALL_ELF DEPTH_ELF DEPTH_SRC WORKDIR [EXAMPLE]
# (EXAMPLE: examples/cube's program for shader_rule, examples/scan's for scan_example)
set -u
case_=$1 ws=$2 app=$3 stall=$4 elf=$5 src=$6 dir=$7/depth_$1 example=${8:-}
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
line() { grep -n "MARK_$1 " "$src" | cut -d: -f1; }
# The report's rules, one per line they name: a rule with one cause on
# several lines ("  - f.c:52 and 50: TEXT (figures of line 52, ...)")
# becomes "  - f.c:52: TEXT" and "  - f.c:50: TEXT".
by_line() {
    python3 -c '
import re, sys
for s in open(sys.argv[1], errors="replace"):
    m = re.match(r"(  - [^:]+):((?:\d+(?:, | and ))*\d+)(?: and \d+ more lines?)?: (.*?)(?: \(figures of line \d+, the heaviest of the \d+ lines\))?$", s.rstrip("\n"))
    if not m: print(s, end=""); continue
    for n in re.split(r", | and ", m.group(2)): print("%s:%s: %s" % (m.group(1), n, m.group(3)))
' "$1"
}
rule_metric() { # rule_metric JSON RULE SHARE: each RULE's metric is SHARE (python, of its line's exact cycles c), >= 0.5
    python3 - "$@" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
r = [r for r in k['rules'] if r['rule'] == sys.argv[2]]
assert r, k['rules']
for x in r:
    c = [l for l in k['lines'] if l['line'] == x['line']][0]['exact']['cycles']
    share = eval(sys.argv[3], {'c': c})
    assert share >= 0.5 and abs(x['metric'] - share) < 1e-5, (x, share)
PY
}
expect() { # expect FILE TEXT WHAT (the rules also one per line they name)
    if grep -qF -- "$2" "$1" || by_line "$1" | grep -qF -- "$2"; then ok "$3"; else bad "$3: '$2' not in $1"; sed -n 1,40p "$1"; fi
}

case $case_ in
inline)
    fma=$(line FMA)
    "$ws" profile --period 3 --json p.json -- "$ws" run --grid 2 --block 64 "$elf" fma_chain zeros:128 200 > r.txt 2>&1 ||
        bad "profile exited with $?"
    expect r.txt "depth_kernels.c:$fma (fma_chain)" "the inlined fmaf is charged to the calling line $fma"
    grep -q "math.h" r.txt && bad "math.h still in the report: $(grep math.h r.txt)" || ok "no math.h line by default"
    python3 - p.json "$fma" <<'PY' && ok "JSON: fmadd at line $fma, chain names the caller" || bad "JSON inline"
import json, sys
d = json.load(open(sys.argv[1]))['devices'][0]
fma = int(sys.argv[2])
assert d['options']['inline'] == 'caller'
k = d['kernels'][0]
i = [i for i in k['instructions'] if i['instruction'].startswith('fmadd.s')]
assert len(i) == 1 and i[0]['samples'] > 0, i
i = i[0]
assert i['file'].endswith('depth_kernels.c') and i['line'] == fma and i['function'] == 'fma_chain', i
assert i['inlined'].startswith('fmaf <- fma_chain (') and i['inlined'].endswith('depth_kernels.c:%d)' % fma), i
assert not any(l['file'] and l['file'].endswith('math.h') for l in k['lines'])
# thread ids from <warpscope/kernel.h>: "threadIdx_x <- fma_chain (...)", never "threadIdx_x <- threadIdx_x"
chains = [x['inlined'] for x in k['instructions'] if x['inlined']]
assert all(c.split(' <- ')[1].startswith('fma_chain (') for c in chains), chains
print(i['inlined'])
PY
    "$ws" profile --inline callee --period 3 --json c.json -- "$ws" run --grid 2 --block 64 "$elf" fma_chain zeros:128 200 > c.txt 2>&1 ||
        bad "--inline callee exited with $?"
    python3 - c.json <<'PY' && ok "--inline callee: the fmadd at its own line in math.h (fmaf)" || bad "--inline callee"
import json, sys
d = json.load(open(sys.argv[1]))['devices'][0]
assert d['options']['inline'] == 'callee'
i = [i for i in d['kernels'][0]['instructions'] if i['instruction'].startswith('fmadd.s')][0]
assert i['file'].endswith('math.h') and i['function'] == 'fmaf', i
text = open(i['file']).read().split('\n')[i['line'] - 1]
assert 'fmadd.s' in text, text
print(i['file'], i['line'])
PY
    grep -q "math.h:[0-9]* (fmaf)" c.txt && ok "report names math.h (fmaf) with --inline callee" || bad "callee report"
    # Code without a line (line 0) of the inlined poly is poly's, not the kernel's
    "$ws" profile --inline callee --period 6 --json i.json -- "$ws" run --grid 4 --block 64 "$elf" inl_poly zeros:256 200 \
        > i.txt 2>&1 || bad "inl_poly exited with $?"
    python3 - i.json <<'PY' && ok "--inline callee: line-0 code per function" || bad "--inline callee: line-0 code merged"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
want = {}
for i in k['instructions']:
    if i['file'] and i['line'] == 0:
        want[i['function']] = want.get(i['function'], 0) + i['samples']
have = {l['function']: l['samples'] for l in k['lines'] if l['file'] and l['line'] == 0}
print('line 0 samples by function', want, 'lines', have)
assert want.get('poly', 0) > 0 and 'inl_poly' in want and have == want, (want, have)
PY
    grep -qE "^ +[0-9]+ +[0-9.]+%  depth_kernels.c \(poly\), compiler-generated code without a line" i.txt &&
        ok "report: poly's code without a line named poly" || bad "report: $(grep compiler-generated i.txt)"
    "$ws" profile --inline sideways -- true > o.txt 2>&1; rc=$?
    [ $rc = 2 ] && grep -q "expected 'caller' or 'callee'" o.txt && ok "bad --inline" || bad "bad --inline (rc $rc)"
    ;;
overflow)
    # Period 2^0..2^2: every warp of a barrier-heavy kernel asks for a
    # record far more often than the FIFO drains. The kept samples' state
    # mix must match the timing model's exact warp-cycles.
    for p in 0 1 2; do
        "$ws" profile --period $p --json p$p.json -- "$ws" run --grid 8 --block 256 "$elf" barrier_heavy zeros:2048 300 \
            > r$p.txt 2>&1 || bad "period $p exited with $?"
        python3 - p$p.json <<'PY' && ok "period 2^$p: sampled states within 1 point of exact" || bad "period 2^$p state mix"
import json, sys
d = json.load(open(sys.argv[1]))['devices'][0]
L, k = d['launches'][0], d['kernels'][0]
ex = L['counters']['state_cycles']
te, ts = sum(ex.values()), sum(k['states'].values())
assert L['overflowed'] > 0 and L['overflowed'] == L['dropped'], L
worst = 0
for s in set(ex) | set(k['states']):
    a, b = 100 * ex.get(s, 0) / te, 100 * k['states'].get(s, 0) / ts
    worst = max(worst, abs(a - b))
    assert abs(a - b) <= 1.0, (s, a, b)
print('barrier exact %.2f%% sampled %.2f%%, worst difference %.2f points' %
      (100 * ex['barrier'] / te, 100 * k['states']['barrier'] / ts, worst))
PY
        expect r$p.txt "round-robin order, so the kept ones are an unbiased subset" "period 2^$p: the report names the policy"
        grep -q "raise --buffer" r$p.txt && bad "period 2^$p: tells the user to raise --buffer" || ok "period 2^$p: no --buffer advice"
    done
    "$ws" profile -q --period 0 --json q.json -- "$ws" run --grid 8 --block 256 "$elf" barrier_heavy zeros:2048 300 > /dev/null 2>&1
    cmp -s p0.json q.json && ok "period 2^0: same input, same JSON" || bad "period 2^0 is not deterministic"
    ;;
cycle0)
    # Period 8: one sample a period, at a pseudo-random cycle of it (dither;
    # cycle 0 no likelier than another); two passes: one in each half.
    "$ws" profile --period 3 --json p.json --trace t.json -- "$ws" run --block 32 "$elf" tiny zeros:32 > r.txt 2>&1 ||
        bad "profile exited with $?"
    "$ws" profile --period 3 --passes 2 --json p2.json --trace t2.json -- "$ws" run --block 32 "$elf" tiny zeros:32 > r2.txt 2>&1 ||
        bad "profile (2 passes) exited with $?"
    python3 - p.json p2.json t.json <<'PY' && ok "one sampling point a period per pass, at dithered cycles" || bad "sampling points"
import json, sys
L1, L2 = (json.load(open(f))['devices'][0]['launches'][0] for f in sys.argv[1:3])
n = L1['cycles'] // 8    # whole periods; the last, partial one may hold a point or not
assert n <= L1['sample_points'] <= n + 1, L1
assert 2 * n <= L2['sample_points'] <= 2 * n + 2, L2
ts = {e['ts'] % 8 for e in json.load(open(sys.argv[3]))['traceEvents'] if e['ph'] == 'X' and 'pc' in e.get('args', {})}
assert len(ts) > 1, ts   # not one fixed offset in every period
print(L1['cycles'], 'cycles,', L1['sample_points'], 'and', L2['sample_points'], 'sampling points; offsets', sorted(ts))
PY
    n=$(python3 -c "import json; print(json.load(open('p.json'))['devices'][0]['kernels'][0]['samples'])")
    expect r.txt "warning: kernel tiny has only $n samples at " "low-sample warning with the count ($n)"
    # At period 2^12 no sampling point falls in tiny's few hundred cycles:
    # no samples, but its lines and instructions with their exact metrics
    "$ws" profile --period 12 -- "$ws" run --block 32 "$elf" tiny zeros:32 > z.txt 2>&1 || bad "period 12 exited with $?"
    grep -qE "^warning: kernel tiny has no samples: it ran [0-9]+ cycles and none of the sampling points \(one every 4096 cycles, at a pseudo-random cycle of each period\) fell in them; lower --period" z.txt &&
        ok "no samples: says why" || bad "no-sample warning: $(grep warning z.txt)"
    grep -q "uncertain by up to 100 points" z.txt && bad "0 samples called uncertain" || ok "no uncertainty claim at 0 samples"
    sed -n '/Hot source lines/,/Hot instructions/p' z.txt | grep -A3 "depth_kernels.c:$(line TINY) (tiny)" | grep -q "exact: 7 warp-instr, SIMT 100.0%" &&
        grep -q "^  Hot instructions" z.txt && ok "no samples: lines and instructions with exact metrics" ||
        { bad "no samples: no hot lines"; sed -n 1,40p z.txt; }
    "$ws" profile --period 3 -- "$app" "$stall" dep_load > d.txt 2>&1 || bad "dep_load exited with $?"
    grep -q "has only" d.txt && bad "low-sample warning on a well-sampled kernel" || ok "no low-sample warning at $(sed -n '/^Kernels/{n;n;p;q}' d.txt | awk '{print $1}') samples"
    ;;
fault)
    f=$(line FAULT)
    "$ws" profile --period 3 --passes 2 --json p.json -- "$ws" run --grid 4 --block 64 "$elf" fault_one zeros:256 256 > r.txt 2>&1
    expect r.txt "error: launch 1 (fault_one) failed: store access fault at address 0x00000100 (4 bytes), block (2,0,0) thread (37,0,0), pc 0x" "report: kind, address, block, thread"
    grep -E "^error: launch 1 \(fault_one\) failed: .* at depth_kernels.c:$f \(fault_one\)$" r.txt > /dev/null &&
        ok "report: the faulting line $f" || bad "report: no line $f: $(grep '^error' r.txt)"
    grep -qE "^    fault: store access fault at address 0x00000100" r.txt && ok "counters section names the fault" ||
        bad "no fault line in the counters"
    python3 - p.json "$f" <<'PY' && ok "JSON fault: kind, address, block, thread, line" || bad "JSON fault"
import json, sys
L = json.load(open(sys.argv[1]))['devices'][0]['launches'][0]
x = L['fault']
assert L['status'] == 'WS_ERR_KERNEL_FAULT' and L['error'] and L['passes'] == 1, L
assert x['kind'] == 'store access fault' and x['address'] == 0x100 and x['size'] == 4, x
assert x['block'] == [2, 0, 0] and x['thread'] == [37, 0, 0], x
assert x['file'].endswith('depth_kernels.c') and x['line'] == int(sys.argv[2]) and x['function'] == 'fault_one', x
assert x['instruction'].startswith('sw'), x
PY
    ;;
assert)
    # A failed assert stops the lane in the device library (__assert_func):
    # the report names the assertion and its line in the kernel, which only
    # the device's message has, besides the pc and its library line.
    a=$(line ASSERT)
    "$ws" profile --passes 2 -- "$ws" run --grid 2 --block 64 "$elf" assert_one zeros:128 > r.txt 2>&1
    grep -E "^error: launch 1 \(assert_one\) failed: device assert: assertion 'b != 1 \|\| t != 9' failed at (.*/)?depth_kernels.c:$a in assert_one\(\), block \(1,0,0\) thread \(9,0,0\), pc 0x" r.txt > /dev/null &&
        ok "report: the assertion and its line $a" || bad "report: $(grep '^error' r.txt)"
    grep -E "^    fault: device assert: assertion 'b != 1 \|\| t != 9' failed at (.*/)?depth_kernels.c:$a in assert_one\(\)" r.txt > /dev/null &&
        ok "counters section: the same" || bad "counters section: $(grep '^    fault' r.txt)"
    ;;
nolaunch)
    "$ws" profile --json p.json -- "$app" "$stall" none > r.txt 2>&1; rc=$?
    [ $rc = 0 ] && ok "exit 0" || bad "rc $rc"
    expect r.txt "note: no kernel was launched on this device: nothing was sampled" "no-launch sentence"
    python3 -c "import json; d = json.load(open('p.json'))['devices'][0]; assert d['launches'] == [] and d['kernels'] == []" &&
        ok "JSON: no launches" || bad "JSON no launches"
    ;;
nodevice)
    "$ws" profile -- sh -c 'exit 3' > r.txt 2>&1; rc=$?
    [ $rc = 3 ] && ok "status 3 passed on" || bad "rc $rc"
    expect r.txt "sh opened no warpscope device: nothing was profiled" "never opened a device"
    grep -q "without closing" r.txt && bad "told it did not close a device" || ok "not told about closing"
    # The program leaks its device on purpose: LeakSanitizer (ASan CI job) must not fail it.
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$ws" profile -- "$app" "$stall" unclosed > u.txt 2>&1; rc=$?
    [ $rc = 1 ] && ok "unclosed: nothing profiled, exit 1" || bad "unclosed rc $rc"
    expect u.txt "opened a warpscope device but ended without closing it" "device left open"
    ;;
unwritable)
    "$ws" profile --json no-such-dir/p.json -- "$app" "$stall" dep_load > r.txt 2>&1; rc=$?
    [ $rc = 2 ] && grep -q "json no-such-dir/p.json: cannot write: No such file or directory" r.txt &&
        ok "missing directory: exit 2 before the run" || bad "missing directory (rc $rc)"
    # Writable when checked, gone when the profile is written.
    mkdir gone
    "$ws" profile --json gone/p.json -- sh -c "rmdir gone && exec '$app' '$stall' dep_load" > g.txt 2>&1; rc=$?
    [ $rc = 1 ] && ok "output gone at close: exit 1" || bad "output gone at close (rc $rc)"
    expect g.txt "cannot write the JSON profile gone/p.json: No such file or directory" "says which file and why"
    WARPSCOPE_PROFILE=report=no-such-dir/r.txt "$app" "$stall" dep_load > e.txt 2>&1; rc=$?
    [ $rc != 0 ] && grep -q "profiler: report no-such-dir/r.txt: cannot write: No such file or directory" e.txt &&
        ok "WARPSCOPE_PROFILE report= unwritable: the device does not open" || bad "unwritable report= (rc $rc)"
    ;;
bank_rule)
    # The rule's cause follows the measured degree: 2-way is an even stride,
    # only 32-way a multiple of 32 words.
    st=$(line STRIDE_STORE)
    for stride in 2 4 32; do
        "$ws" profile --period 3 -- "$ws" run --grid 2 --block 64 "$elf" bank_stride zeros:128 $stride > r$stride.txt 2>&1 ||
            bad "stride $stride exited with $?"
    done
    expect r2.txt "depth_kernels.c:$st: bank conflicts: 2.0 wavefronts per shared request, 1 of every 2 are conflicts; 2 lanes at a time hit one bank with different words, as a stride of 2 times an odd number of words does (e.g. s[2 * t]): make the stride odd" "stride 2: a 2-way conflict, an even stride"
    expect r4.txt "depth_kernels.c:$st: bank conflicts: 4.0 wavefronts per shared request, 3 of every 4 are conflicts; 4 lanes at a time" "stride 4: 4-way"
    grep -q "multiple of 32" r2.txt r4.txt && bad "a 2- or 4-way conflict blamed on a multiple of 32" || ok "no multiple-of-32 claim below 32-way"
    expect r32.txt "depth_kernels.c:$st: bank conflicts: 32.0 wavefronts per shared request, 31 of every 32 are conflicts; lanes hit the same bank with different words (a stride that is a multiple of 32 words): pad the array by one word per row" "stride 32: a multiple of 32 words"
    # With 16 lanes running the access (lanes_per_warp=16, or blocks of 16
    # threads) the degree halves: stride 32 is 16-way, stride 16 8-way.
    # The cause must still name the stride, not half of it.
    "$ws" profile --period 3 -- "$ws" run --config lanes_per_warp=16 --grid 2 --block 64 "$elf" bank_stride zeros:128 32 > l16s32.txt 2>&1 ||
        bad "16 lanes, stride 32 exited with $?"
    "$ws" profile --period 3 -- "$ws" run --config lanes_per_warp=16 --grid 2 --block 64 "$elf" bank_stride zeros:128 16 > l16s16.txt 2>&1 ||
        bad "16 lanes, stride 16 exited with $?"
    "$ws" profile --period 3 -- "$ws" run --grid 4 --block 16 "$elf" bank_stride zeros:64 32 > b16s32.txt 2>&1 ||
        bad "blocks of 16, stride 32 exited with $?"
    expect l16s32.txt "depth_kernels.c:$st: bank conflicts: 16.0 wavefronts per shared request, 15 of every 16 are conflicts; lanes hit the same bank with different words (a stride that is a multiple of 32 words)" "16 lanes, stride 32: a multiple of 32 words"
    expect l16s16.txt "depth_kernels.c:$st: bank conflicts: 8.0 wavefronts per shared request, 7 of every 8 are conflicts; 8 lanes at a time hit one bank with different words, as a stride of 16 times an odd number of words does" "16 lanes, stride 16: 16 times an odd number"
    expect b16s32.txt "depth_kernels.c:$st: bank conflicts: 16.0 wavefronts per shared request, 15 of every 16 are conflicts; lanes hit the same bank with different words (a stride that is a multiple of 32 words)" "blocks of 16, stride 32: a multiple of 32 words"
    # Degrees that differ on one line: the share of conflicts is not
    # truncated to "0 of every 1".
    mx=$(line MIXED)
    "$ws" profile --period 3 -- "$ws" run --grid 2 --block 64 "$elf" bank_mixed zeros:128 > rmixed.txt 2>&1 ||
        bad "bank_mixed exited with $?"
    expect rmixed.txt "depth_kernels.c:$mx: bank conflicts: 1.5 wavefronts per shared request, 1 of every 3 are conflicts; lanes hit the same bank with different words, in more than one pattern on this line" "mixed degrees: 1 of every 3"
    grep -q "0 of every" rmixed.txt && bad "a bank-conflict rule says 0 conflicts: $(grep '0 of every' rmixed.txt)" || ok "no '0 of every'"
    ;;
atomic_rule)
    # A line that waits on an atomic's result gets the atomics rule, which
    # names the atomic; a line waiting on loads keeps the latency rule.
    aw=$(line ATOMIC_WAIT)
    "$ws" profile --json a.json -- "$ws" run --grid 4 --block 128 "$elf" atomic_wait zeros:129 50 > r.txt 2>&1 ||
        bad "profile exited with $?"
    expect r.txt "depth_kernels.c:$aw: atomic latency: " "the atomics rule on the atomic's line"
    expect r.txt "wait for an atomic's result (long_scoreboard, on amoadd.w" "it names the atomic"
    grep -q "depth_kernels.c:$aw: memory latency" r.txt && bad "the atomic's line also blamed on loads" || ok "not blamed on loads"
    python3 -c "import json,sys; r=[x for k in json.load(open('a.json'))['devices'][0]['kernels'] for x in k['rules']]; sys.exit(not any(x['rule'] == 'atomics' and x['line'] == $aw for x in r))" &&
        ok "JSON rule id atomics" || bad "JSON: no atomics rule on line $aw"
    # One counter: its lanes take turns at the LSU port, 32 cycles against
    # a 400-cycle round trip with the port mostly idle: the advice says the
    # wait is the round trip (until 2026-11-28 it blamed the turns).
    expect r.txt "lanes on one word take turns at the LSU port, at most 32 cycles against a 400-cycle round trip (global_latency), and the port is busy only" "one counter: turns, weighed against the round trip"
    expect r.txt "the wait is the round trip, not contention; use the old value later" "one counter: the round trip is the wait"
    grep -q "spread the updates\|spread them over several addresses" r.txt && bad "one counter with an idle port told to spread its updates" || ok "no spreading advice with an idle port"
    # An atomic whose old value is unused (`atomicAdd(c, 1);`): the warp
    # waits for it only because the next atomic overwrites its register
    # (write after write). Until 2026-11-28 the advice was to use that
    # value later.
    ua=$(line UNUSED_ATOMIC)
    "$ws" profile -- "$ws" run --grid 4 --block 128 "$elf" unused_atomic zeros:1 50 > u.txt 2>&1 ||
        bad "unused_atomic exited with $?"
    by_line u.txt | grep -qE "^  - depth_kernels.c:$ua: atomic completion: [0-9.]+% of its warp-cycles wait for an earlier atomic to complete \(long_scoreboard, on amoadd.w ([a-z0-9]+), .*\): its old value is unused, but the next write of its register \(amoadd.w \1, .*\) waits for it to land \(write after write\)" &&
        ok "unused_atomic: a write-after-write wait on the atomic's register" || { bad "unused_atomic: the wait"; grep -A2 Rules u.txt; }
    expect u.txt "make fewer atomics: add up in a register (or per warp by shuffles, per block in shared memory) and make one atomic at the end" "unused_atomic: fewer atomics"
    grep -q "old value later\|wait for an atomic's result" u.txt && bad "unused_atomic: advice about a result it never uses" || ok "unused_atomic: no advice about using the result"
    # the line's cause and the instruction's row say the same
    grep -qE "^ +line $ua: [0-9.]+% long_scoreboard, waiting on the atomic at line $ua \(amoadd.w [^;]*\), only to overwrite its unused result \(write after write\)$" u.txt &&
        ok "unused_atomic: the line's cause says write after write" || { bad "unused_atomic: the line's cause"; grep -E "^ +line $ua: " u.txt; }
    grep -qE "^  0x[0-9a-f]+ +[0-9]+ .*amoadd.w .*; waits on line $ua \(amoadd.w .*\), only to overwrite its unused result \(write after write\)$" u.txt &&
        ok "unused_atomic: the instruction's row too" || bad "unused_atomic: the instruction's row"
    grep -q "overwrite" r.txt && bad "atomic_wait uses its results: $(grep overwrite r.txt)" || ok "atomic_wait: its waits are for results it uses"
    uo=$(line UNUSED_OWN_ATOMIC)
    "$ws" profile -- "$ws" run --grid 4 --block 128 "$elf" unused_own_atomic zeros:512 50 > uo.txt 2>&1 ||
        bad "unused_own_atomic exited with $?"
    expect uo.txt "depth_kernels.c:$uo: atomic completion: " "unused_own_atomic: completion"
    expect uo.txt "so they need not take turns: the wait is the atomic's round trip to memory, as a load's; make fewer atomics" "unused_own_atomic: own words, fewer atomics"
    # Lanes on words of their own (32 words, 4 sectors per request) need
    # not take turns: the wait is the round trip, and the advice is not to
    # combine or spread updates that are already spread (until 2026-11-28
    # it was).
    oa=$(line OWN_ATOMIC)
    "$ws" profile --json o.json -- "$ws" run --grid 2 --block 256 "$elf" own_atomic zeros:1024 20 > o.txt 2>&1 ||
        bad "own_atomic exited with $?"
    by_line o.txt | grep -qE "^  - depth_kernels.c:$oa: atomic latency: [0-9.]+% of its warp-cycles wait for an atomic's result \(long_scoreboard, on amoadd.w .*\); its 32.0 lanes per request fit in the words of its 4.0 sectors, so they need not take turns: the wait is the atomic's round trip to memory" &&
        ok "own_atomic: a round trip, not turns" || { bad "own_atomic"; grep -A2 Rules o.txt; }
    grep -q "take turns (a warp's lanes on one" o.txt && bad "own_atomic told its lanes take turns" || ok "own_atomic: no turns advice"
    ;;
atomic_turns)
    # docs/timing.md: a global atomic's lanes on one word take turns at the
    # LSU port, a cycle each, after which the value returns 400 cycles
    # later. With the port mostly idle one word costs about what 32 words
    # do; the advice blames the turns only where the port is busy.
    t1=$("$ws" run --config mode=timing --grid 4 --block 128 "$elf" unused_atomic zeros:1 50 | sed -n "s/.* \([0-9]*\) cycles,.*/\1/p")
    t32=$("$ws" run --config mode=timing --grid 4 --block 128 "$elf" unused_own_atomic zeros:512 50 | sed -n "s/.* \([0-9]*\) cycles,.*/\1/p")
    [ -n "$t1" ] && [ -n "$t32" ] && [ $((t1 * 10)) -lt $((t32 * 11)) ] && [ "$t1" -gt "$t32" ] &&
        ok "one word $t1 cycles, 32 words $t32: within 10%" || bad "one word $t1 cycles, 32 words $t32"
    ua=$(line UNUSED_ATOMIC)
    # 12 warps a core: the port is busy most of the cycles with the turns
    "$ws" profile -- "$ws" run --config warps_per_core=12 --grid 12 --block 128 "$elf" unused_atomic zeros:1 50 > b.txt 2>&1 ||
        bad "profile exited with $?"
    by_line b.txt | grep -qE "^  - depth_kernels.c:$ua: atomic completion: .*; lanes on one word take turns at the LSU port \(up to 32 cycles a request\), which is busy [6-9][0-9].[0-9]% of the cycles: the turns delay the other warps too; combine within the warp first" &&
        ok "busy port: the turns are blamed" || { bad "busy port: turns"; grep -A2 Rules b.txt; }
    expect b.txt "; better still, add up in a register and make one atomic at the end" "busy port: and fewer atomics"
    # 32 warps a core: the port is saturated by the turns, and the warps
    # wait for room in its queue: contention, not bytes (until 2026-11-28
    # the bandwidth rule said to move fewer bytes, at 1 sector a request)
    "$ws" profile -- "$ws" run --config warps_per_core=32 --grid 16 --block 256 "$elf" unused_atomic zeros:1 50 > s.txt 2>&1 ||
        bad "profile exited with $?"
    by_line s.txt | grep -qE "^  - depth_kernels.c:$ua: bandwidth: .*the line's atomic \(amoadd.w .*\) puts 32.0 lanes per request on the words of 1.0 sector, and lanes on one word take turns at the port, up to 32 cycles a request where its sectors alone take 1.0: contention, not bytes; combine within the warp first" &&
        ok "saturated port: the bandwidth rule names the turns" || { bad "saturated port"; grep -A2 Rules s.txt; }
    grep -q "move fewer bytes per result" s.txt && bad "saturated by turns, told to move fewer bytes" || ok "no fewer-bytes advice"
    ;;
producer)
    # A line's "N% long/short_scoreboard, waiting on ..." names the
    # instructions those samples wait for (loads, CSRs), never an ALU result
    # that only its `wait` samples waited for.
    wm=$(line WAIT_MIX)
    "$ws" profile --period 4 -- "$ws" run --grid 2 --block 128 "$elf" wait_mix zeros:256 200 > r.txt 2>&1 ||
        bad "profile exited with $?"
    expect r.txt "line $wm: " "the store's line has a cause"
    grep -E "^ +line [0-9]+: [0-9.]+% (long|short)_scoreboard, waiting on" r.txt > causes.txt
    cat causes.txt
    [ -s causes.txt ] && ok "scoreboard causes listed" || bad "no scoreboard cause in the report"
    # every producer named: "the KIND at line N (OP ...)" with OP a load, a CSR read or a shuffle
    grep -oE "the [A-Za-z ]+ at (line [0-9]+|0x[0-9a-f]+) \([a-z.]+" causes.txt | sed 's/.*(//' | sort -u > ops.txt
    bad_ops=$(grep -vE "^(l[bhw]u?|flw|csrr[a-z]*|amo[a-z.]*|lr[a-z.]*|sc[a-z.]*|shfl[a-z.]*|vote[a-z.]*)$" ops.txt)
    [ -z "$bad_ops" ] && ok "producers are memory/MIO operations: $(tr '\n' ' ' < ops.txt)" ||
        bad "a scoreboard cause names an ALU producer: $bad_ops"
    # each named by its kind: a thread or block id read is "the CSR read"
    # (until 2026-11-28 "the instruction")
    grep -qE "the CSR read at line [0-9]+ \(csrr " causes.txt && ! grep -qE "the instruction at [^(]*\(csrr" causes.txt &&
        ok "CSR reads named as such" || bad "CSR reads: $(grep -oE 'the [A-Za-z ]+ at [^(]*\(csrr' causes.txt | sort -u)"
    ;;
exit_row)
    # The exit stub's row among the hot instructions says what it is, as the
    # hot lines do, not "?:0".
    "$ws" profile --period 4 -- "$ws" run --grid 2 --block 128 "$elf" wait_mix zeros:256 200 > r.txt 2>&1 ||
        bad "profile exited with $?"
    grep -E "^  0xffff0000 +[0-9]+ " r.txt
    grep -qE "^  0xffff0000 +[1-9][0-9]* .*\(kernel exit: retired warps draining\) +drain" r.txt &&
        ok "exit stub row: kernel exit" || bad "exit stub row does not say kernel exit"
    grep -qE "^  0x[0-9a-f]{8} .* \?:0 " r.txt && bad "an instruction row says ?:0" || ok "no ?:0 row"
    ;;
exit_drain)
    # The exit drain (warps that returned, waiting for their last stores)
    # is on no source line: the report says its share once, and the rules'
    # 2 % bars are of the kernel's lines. drain_heavy with global_latency
    # 1500 is 90 % drain; its divergent loop is 1.1 % of all warp-cycles,
    # 11 % of its lines'. Until 2026-11-28 the drain counted in the bars
    # and the loop got no rule.
    dl=$(line DRAIN_ODD)
    printf 'global_latency = 1500\n' > slow.timing
    "$ws" profile --json d.json -- "$ws" run --config timing=slow.timing --grid 4 --block 256 "$elf" drain_heavy zeros:32768 1 > d.txt 2>&1 ||
        bad "profile exited with $?"
    grep -qE "^  exit drain: (8[5-9]|9[0-9])\.[0-9]% of its warp-cycles \(([0-9]+) of ([0-9]+)\): warps that returned, waiting for their last stores and atomics \(the kernel exit's row\); on no source line, so the rules weigh lines against the other [0-9]+$" d.txt &&
        ok "the report states the exit drain's share" || { bad "exit drain line"; sed -n '/^Kernel/,/Rules/p' d.txt; }
    python3 - d.json d.txt <<'PY' && ok "the drain line's figures add up" || bad "the drain line's figures"
import json, re, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
cyc = {(l['file'], l['line']): sum(l['exact']['cycles'].values()) for l in k['lines']}
drain = sum(c for (f, n), c in cyc.items() if f is None and n == 0xffff0000)
m = re.search(r"exit drain: [0-9.]+% of its warp-cycles \((\d+) of (\d+)\).* against the other (\d+)$", open(sys.argv[2]).read(), re.M)
assert m and int(m.group(1)) == drain and int(m.group(2)) == sum(cyc.values()) and int(m.group(3)) == sum(cyc.values()) - drain, (m and m.groups(), drain)
PY
    expect d.txt "depth_kernels.c:$dl: divergence: SIMT efficiency 50.0%" "the divergent loop's rule, against its lines' cycles"
    # a drain under 2 % of the warp-cycles (a long loop, then one store)
    # moves no bar: no drain line
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" fma_chain zeros:128 2000 > n.txt 2>&1 || bad "fma_chain exited with $?"
    grep -q "exit drain" n.txt && bad "exit drain line without drain: $(grep 'exit drain' n.txt)" || ok "no drain, no drain line"
    ;;
producer_line)
    # A rule is charged to the line that waits, but the instruction waited
    # on may sit on the line before: the text names that line, where the
    # change goes. Until 2026-11-28 it named only the instruction
    # ("on amoadd.w a4, a6, (a4)"), and told the using line of a CSR read
    # in a loop to read the ids less, with no read on it.
    ar=$(line ATOMIC_READ) au=$(line ATOMIC_USE) cr=$(line CSR_READ) cu=$(line CSR_USE)
    "$ws" profile -- "$ws" run --grid 4 --block 128 "$elf" atomic_next_line zeros:200 50 > a.txt 2>&1 ||
        bad "atomic_next_line exited with $?"
    by_line a.txt | grep -qE "^  - depth_kernels.c:$au: atomic latency: [0-9.]+% of its warp-cycles wait for an atomic's result \(long_scoreboard, on amoadd.w [^)]*\) at line $ar\); " &&
        ok "atomic_next_line: the rule on line $au names the atomic's line $ar" || { bad "atomic_next_line"; grep -A3 Rules a.txt; }
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" csr_next_line zeros:2048 50 > c.txt 2>&1 ||
        bad "csr_next_line exited with $?"
    by_line c.txt | grep -qE "^  - depth_kernels.c:$cu: MIO latency: [0-9.]+% of its warp-cycles wait for an MIO result \(short_scoreboard, on csrr [^)]* at line $cr\): .* instead of reading them again: read the one at line $cr once, before its loop" &&
        ok "csr_next_line: the rule on line $cu points at the read on line $cr" || { bad "csr_next_line"; grep -A3 Rules c.txt; }
    # a wait on the line's own instruction names no line
    "$ws" profile -- "$ws" run --grid 4 --block 128 "$elf" atomic_wait zeros:129 50 > w.txt 2>&1 || bad "atomic_wait exited with $?"
    aw=$(line ATOMIC_WAIT)
    by_line w.txt | grep -qE "^  - depth_kernels.c:$aw: atomic latency: [0-9.]+% of its warp-cycles wait for an atomic's result \(long_scoreboard, on amoadd.w [^)]*\)\); " &&
        ok "atomic_wait: its own line's atomic, no line named" || { bad "atomic_wait"; grep -A3 Rules w.txt; }
    ;;
drain_stores)
    # The exit drain waits for each warp's last global store or atomic to
    # complete (its turn at the LSU port, then global_latency): the report
    # names them, the last on each path to the kernel's return, not the
    # store before the branch, whose completion comes no later; the JSON
    # carries the drain apart from the lines and the same stores. Until
    # 2026-11-28 the report said "their last stores and atomics" without
    # saying which, and the JSON had neither.
    df=$(line DRAIN_FIRST) ds=$(line DRAIN_STORE) da=$(line DRAIN_ATOMIC)
    "$ws" profile --json d.json -- "$ws" run --grid 4 --block 256 "$elf" drain_branches zeros:33792 32768 > d.txt 2>&1 ||
        bad "drain_branches exited with $?"
    grep -qE "^    the stores it waits for, each warp's store or atomic to complete last: depth_kernels.c:$da \(amoadd.w [^)]*\), last for 16 warps, 16 warp-instr, 32.0 sectors per request\), depth_kernels.c:$ds \(sw [^)]*\), last for 16 warps, 16 warp-instr, 4.0 sectors per request\)$" d.txt &&
        ok "the drain's stores: lines $da and $ds, with their sectors" || { bad "the drain's stores"; grep -A1 "exit drain" d.txt; }
    grep -A1 "exit drain" d.txt | grep -q "depth_kernels.c:$df " && bad "the store before the branch named" || ok "not the store before the branch ($df)"
    python3 - d.json d.txt "$ds" "$da" <<'PY' && ok "JSON: exit_drain figures and stores as the report's" || bad "JSON exit_drain"
import json, re, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
d = k['exit_drain']
cyc = {(l['file'], l['line']): sum(l['exact']['cycles'].values()) for l in k['lines']}
drain = sum(c for (f, n), c in cyc.items() if f is None and n == 0xffff0000)
m = re.search(r"exit drain: [0-9.]+% of its warp-cycles \((\d+) of (\d+)\).* against the other (\d+)$", open(sys.argv[2]).read(), re.M)
assert m, 'no drain line'
assert (d['warp_cycles'], d['kernel_warp_cycles'], d['lines_warp_cycles']) == tuple(int(x) for x in m.groups()), (d, m.groups())
assert d['warp_cycles'] == drain and d['reported'] is True, d
got = sorted((s['line'], s['instruction'].split()[0], s['global_sectors'] // s['global_requests'], s['warps']) for s in d['last_stores'])
assert got == sorted([(int(sys.argv[3]), 'sw', 4, 16), (int(sys.argv[4]), 'amoadd.w', 32, 16)]), got
PY
    # a path through a call: the warp's last store is the callee's, not
    # the kernel's store before the call (named until a static walk
    # stopped at calls, 2026-11-28), and since the counters count it
    # (2026-11-29), the callee's store, for every warp
    bc=$(line DRAIN_BEFORE_CALL) cs=$(line DRAIN_CALLEE)
    "$ws" profile -q --json c.json -- "$ws" run --grid 4 --block 256 "$elf" drain_call zeros:33792 32768 > c.txt 2>&1 ||
        bad "drain_call exited with $?"
    python3 -c "import json,sys; d=json.load(open('c.json'))['devices'][0]['kernels'][0]['exit_drain']; sys.exit(any(s['line'] == $bc for s in d['last_stores']) or d['warp_cycles'] == 0)" &&
        ok "drain_call: not the store before the call ($bc)" || { bad "drain_call: the store before the call named"; cat c.json | grep -A3 exit_drain; }
    python3 -c "import json,sys; d=json.load(open('c.json'))['devices'][0]['kernels'][0]['exit_drain']; sys.exit([(s['line'], s['function'], s['warps']) for s in d['last_stores']] != [($cs, 'store_far', 32)])" &&
        ok "drain_call: the callee's store ($cs), last for all 32 warps" || { bad "drain_call: the callee's store"; cat c.json | grep -A3 exit_drain; }
    # at -O2 (warpscope cc's default) the kernel tail-calls store_far
    # (auipc + jalr zero): the callee's store still, where the static walk
    # named none
    "$ws" cc -o o2.elf "$src" && "$ws" disasm o2.elf | sed -n '/<drain_call>:/,/^$/p' | grep -q 'jalr zero' ||
        bad "the -O2 drain_call makes no tail call"
    "$ws" profile -q --json t.json -- "$ws" run --grid 4 --block 256 o2.elf drain_call zeros:33792 32768 > t.txt 2>&1 ||
        bad "-O2 drain_call exited with $?"
    python3 -c "import json,sys; d=json.load(open('t.json'))['devices'][0]['kernels'][0]['exit_drain']; sys.exit([(s['line'], s['function'], s['warps']) for s in d['last_stores']] != [($cs, 'store_far', 32)])" &&
        ok "drain_call at -O2, a tail call: the callee's store" || { bad "drain_call -O2: the callee's store"; grep -A3 exit_drain t.json; }
    # ... and its `ret` waits for the return address, restored from the
    # stack behind those stores at the LSU port: the local-memory rule
    # says so, not "build with -O1", which a -O1 kernel already is (until
    # 2026-11-28)
    python3 - c.json <<'PY' && ok "drain_call: the return address's restore named as such" || bad "drain_call: local_memory text"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
r = [r for r in k['rules'] if r['rule'] == 'local_memory']
assert len(r) == 1, k['rules']
t = r[0]['text']
assert '(long_scoreboard, on lw ra, ' in t and 'the load restores a register the kernel saved on its stack' in t, t
assert 'after the warp\'s last stores' in t and 'build with -O1' not in t, t
PY
    # a kernel without a drain worth naming says none, in both
    "$ws" profile --json n.json -- "$ws" run --grid 2 --block 64 "$elf" fma_chain zeros:128 2000 > n.txt 2>&1 || bad "fma_chain exited with $?"
    grep -q "the stores it waits for" n.txt && bad "stores named without a drain line" || ok "no drain line, no stores line"
    python3 -c "import json,sys; d=json.load(open('n.json'))['devices'][0]['kernels'][0]['exit_drain']; sys.exit(d['reported'] is not False)" &&
        ok "JSON: a small drain is not reported" || bad "JSON: small drain reported"
    ;;
json_waw)
    # The JSON's waiting_on says whether the wait only overwrites the
    # producer's register (write after write), as the report's "only to
    # overwrite its unused result" and the atomics rule's "atomic
    # completion" do; until 2026-11-28 only the text had it.
    ua=$(line UNUSED_ATOMIC) aw=$(line ATOMIC_WAIT)
    "$ws" profile --json u.json -- "$ws" run --grid 4 --block 128 "$elf" unused_atomic zeros:1 50 > u.txt 2>&1 ||
        bad "unused_atomic exited with $?"
    "$ws" profile --json w.json -- "$ws" run --grid 4 --block 128 "$elf" atomic_wait zeros:129 50 > w.txt 2>&1 ||
        bad "atomic_wait exited with $?"
    cat > waw.py <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
want = sys.argv[3] == 'true'
l = [l for l in k['lines'] if l['line'] == int(sys.argv[2])][0]
assert l['waiting_on'] and l['waiting_on']['instruction'].startswith('amoadd') and l['waiting_on']['write_after_write'] is want, l
i = [i for i in k['instructions'] if i['waiting_on'] and i['waiting_on']['instruction'].startswith('amoadd') and i['samples']]
assert i and all(x['waiting_on']['write_after_write'] is want for x in i), i
PY
    python3 waw.py u.json "$ua" true && ok "unused_atomic: waiting_on.write_after_write true" || bad "unused_atomic: JSON write_after_write"
    python3 waw.py w.json "$aw" false && ok "atomic_wait: waiting_on.write_after_write false" || bad "atomic_wait: JSON write_after_write"
    # the baseline reader takes the new fields in its stride
    "$ws" profile -q --baseline u.json -- "$ws" run --grid 4 --block 128 "$elf" unused_atomic zeros:1 50 > b.txt 2>&1 &&
        grep -q "kernel unused_atomic" b.txt && ok "--baseline reads it" || { bad "--baseline"; cat b.txt; }
    ;;
latency_no_loop)
    # A kernel without a loop loads once per thread: the latency rule
    # says to give each thread several elements, not to unroll (until
    # 2026-11-28 examples/vecadd was told to unroll); a loop keeps "unroll"
    # (latency_port).
    lo=$(line LOAD_ONCE)
    "$ws" profile -- "$ws" run --grid 16 --block 256 "$elf" load_once iota:4096 zeros:4096 > o.txt 2>&1 || bad "load_once exited with $?"
    by_line o.txt | grep -qE "^  - depth_kernels.c:$lo: memory latency: [0-9.]+% of its warp-cycles wait for a global load's result \(long_scoreboard\); .*each thread loads once, so give each thread several elements and issue their loads together" &&
        ok "load_once: several elements per thread" || { bad "load_once"; grep -A3 Rules o.txt; }
    grep -q "(unroll)" o.txt && bad "load_once told to unroll" || ok "load_once: no unroll advice"
    ;;
baseline_exit)
    # --baseline lists rows without a source file too: with uncoalesced
    # last stores the warps drain longer at the kernel exit, the largest
    # change of the kernel, and the comparison says so (it used to skip
    # the row and list only the store's line).
    st=$(line LAST_STORE)
    "$ws" profile -q --json base.json -- "$ws" run --grid 4 --block 256 "$elf" last_store zeros:262144 1 > r1.txt 2>&1 ||
        bad "baseline run exited with $?"
    "$ws" profile -q --baseline base.json -- "$ws" run --grid 4 --block 256 "$elf" last_store zeros:262144 32 > cmp.txt 2>&1 ||
        bad "comparison run exited with $?"
    cat cmp.txt
    # the exit row's drain grows more than the store line's warp-cycles
    first=$(grep -m1 -E "^    (line|kernel exit|pc)" cmp.txt)
    echo "$first" | grep -qE "^    kernel exit \(pc 0xffff0000, retired warps draining\): warp-cycles ([0-9]+) -> ([0-9]+) \(\+" &&
        ok "the exit row leads the changes" || bad "the exit row is not the first change: $first"
    expect cmp.txt "line depth_kernels.c:$st: warp-cycles" "the store's line is listed too"
    # an identical run: no change, the exit row included
    "$ws" profile -q --baseline base.json -- "$ws" run --grid 4 --block 256 "$elf" last_store zeros:262144 1 > same.txt 2>&1 ||
        bad "identical run exited with $?"
    expect same.txt "    no line changed" "an identical run changes nothing"
    ;;
rule_groups)
    # One cause on several lines is one rule: the compiler spreads
    # stream_fill's stores over the loop body (MARK_FILL), the loop's line
    # and its closing brace, each waiting for room in the LSU queue. The
    # report had three identical bandwidth texts; now one names the three
    # lines, heaviest first, and the JSON lists them with their figures.
    fl=$(line FILL)
    "$ws" profile --json g.json -- "$ws" run --grid 4 --block 256 "$elf" stream_fill zeros:262144 20 1 > g.txt 2>&1 ||
        bad "profile exited with $?"
    grep -A3 Rules g.txt | cut -c1-160
    [ "$(grep -c '^  - .*: bandwidth: ' g.txt)" = 1 ] && ok "one bandwidth entry" ||
        bad "$(grep -c '^  - .*: bandwidth: ' g.txt) bandwidth entries"
    grep -qE "^  - depth_kernels.c:$fl, [0-9]+ and [0-9]+: bandwidth: in kernel stream_fill, .* \(figures of line $fl, the heaviest of the 3 lines\)$" g.txt &&
        ok "it names line $fl first and two more" || bad "the entry does not name the three lines"
    python3 - g.json "$fl" <<'PY' && ok "JSON: one rule, its lines heaviest first" || bad "JSON rule lines"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
fl = int(sys.argv[2])
r = [x for x in k['rules'] if x['rule'] == 'bandwidth']
assert len(r) == 1, k['rules']
r = r[0]
ls = r['lines']
assert [x['line'] for x in ls][0] == fl == r['line'] and {x['line'] for x in ls} == {fl - 3, fl, fl + 2}, ls
assert ls[0]['warp_cycles'] == r['warp_cycles'] and ls[0]['metric'] == r['metric'] and r['more_lines'] == 0, r
assert all(a['warp_cycles'] >= b['warp_cycles'] for a, b in zip(ls, ls[1:])), ls
# each line's figures are its own: the exact warp-cycles of the line
by = {(l['line']): sum(l['exact']['cycles'].values()) for l in k['lines'] if l['file']}
assert all(by[x['line']] == x['warp_cycles'] for x in ls), (ls, by)
PY
    # different causes of one rule stay apart: bank_mixed's two lines
    # conflict in different patterns
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" bank_mixed zeros:128 > b.txt 2>&1 || bad "bank_mixed exited with $?"
    [ "$(grep -c '^  - depth_kernels.c:[0-9]*: bank conflicts: ' b.txt)" = 2 ] && ok "bank_mixed: two causes, two entries" ||
        { bad "bank_mixed: not two single-line bank-conflict entries"; grep -A3 Rules b.txt; }
    ;;
shared_atomic_rule)
    # Every lane of a warp adds to one shared bin: 32 wavefronts per
    # request, which the bank-conflict rule blamed on a stride ("pad the
    # array by one word per row"). A shared atomic gets its own rule.
    sb=$(line SHARED_BIN)
    "$ws" profile --json a.json -- "$ws" run --grid 2 --block 128 "$elf" shared_bin zeros:64 20 > r.txt 2>&1 ||
        bad "profile exited with $?"
    expect r.txt "depth_kernels.c:$sb: shared atomic contention: 32.0 wavefronts per shared atomic, 96.9% of them waiting their turn" "the shared-atomics rule on line $sb"
    grep -q "depth_kernels.c:$sb: bank conflicts" r.txt && bad "the atomic's contention blamed on bank conflicts: $(grep "depth_kernels.c:$sb: bank" r.txt)" ||
        ok "no bank-conflict rule on line $sb"
    grep -q "pad the array" r.txt && bad "padding advised for one bin" || ok "no padding advice"
    expect r.txt "lanes on one word (a hot bin, a counter), which padding does not cure, need fewer atomics: combine within the warp first" "one bin: fewer atomics"
    # Lanes two words apart: two on each even bank, on different words.
    # The counters cannot tell that from lanes sharing words, and the rule
    # names both causes (until 2026-11-28 it said padding does not cure it).
    s2=$(line SHARED_STRIDE2)
    "$ws" profile -- "$ws" run --grid 2 --block 128 "$elf" shared_stride2_atomic zeros:128 20 > s2.txt 2>&1 ||
        bad "shared_stride2_atomic exited with $?"
    expect s2.txt "depth_kernels.c:$s2: shared atomic contention: 2.0 wavefronts per shared atomic" "stride 2: the shared-atomics rule"
    expect s2.txt "lanes on different words of one bank (words an even stride apart) need an odd stride, as bank conflicts do (the counters do not tell the two apart)" "stride 2: the odd-stride cure named"
    # the exact counters under the line and the atomic say the same
    grep -A4 -E "^ +[0-9]+ +[0-9.]+%  depth_kernels.c:$sb \(shared_bin\)" r.txt |
        grep -qF "32.00 wavefronts/req (31.00 extra: atomics taking turns)" &&
        ok "line $sb's exact counters: atomics taking turns" || bad "line $sb's exact counters: $(grep -A4 "depth_kernels.c:$sb (shared_bin)" r.txt | grep exact)"
    grep -q "32.00 wavefronts/req (31.00 extra: bank conflicts)" r.txt && bad "the atomic's turns called bank conflicts" ||
        ok "no 'bank conflicts' for the atomic's wavefronts"
    python3 -c "import json,sys; r=[x for k in json.load(open('a.json'))['devices'][0]['kernels'] for x in k['rules']]; sys.exit(not any(x['rule'] == 'shared_atomics' and x['line'] == $sb and x['metric'] == 32.0 for x in r))" &&
        ok "JSON rule id shared_atomics, metric 32" || bad "JSON: no shared_atomics rule on line $sb"
    # The launch's counters say the same: the device counts the atomic's
    # turns as bank conflicts, and the report says they are turns (until
    # 2026-11-28 it said "shared bank conflicts N" beside lines that had none).
    python3 - a.json r.txt <<'PY' && ok "launch counters: every extra wavefront an atomic's turn, said so" || { bad "launch counters: atomic turns"; grep "shared bank" r.txt; }
import json, re, sys
L = json.load(open(sys.argv[1]))['devices'][0]['launches'][0]
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
c = L['counters']
turns = sum(i['exact']['shared_wavefronts'] - i['exact']['shared_requests'] for i in k['instructions']
            if i.get('exact') and i['instruction'].startswith('amo'))
assert turns > 0 and c['shared_atomic_turns'] == turns == c['bank_conflicts'], (c, turns)
line = [s for s in open(sys.argv[2]) if 'shared bank conflicts' in s][0]
assert re.search(r'shared bank conflicts %d \(%d of them shared atomics taking turns\)$' % (turns, turns), line), line
PY
    ;;
local_rule)
    # The loop reads an array on the lanes' stacks: its waits are local
    # memory's, named as such, not "a global load's result" with advice to
    # unroll; a kernel waiting on global loads keeps the latency rule.
    lc=$(line LOCAL)
    "$ws" profile --json a.json -- "$ws" run --grid 2 --block 128 "$elf" local_array zeros:256 200 > r.txt 2>&1 ||
        bad "profile exited with $?"
    expect r.txt "depth_kernels.c:$lc: local memory latency: " "the local-memory rule on line $lc"
    grep -q "depth_kernels.c:$lc: memory latency" r.txt && bad "line $lc blamed on global loads" || ok "not called a global load"
    # each lane reads another word of its array: 32 sectors per request,
    # which is about the lanes' indices, not neighbouring addresses
    expect r.txt "depth_kernels.c:$lc: uncoalesced: 32.0 sectors per request, mostly to the lanes' stacks" "uncoalesced local accesses named as such"
    grep -q "depth_kernels.c:$lc: uncoalesced: .*swap the index roles" r.txt && bad "global-memory advice on local accesses" ||
        ok "no swap-the-index advice"
    python3 - a.json "$lc" <<'PY' && ok "JSON: rule local_memory, the line's local requests counted" || bad "JSON local_memory"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
lc = int(sys.argv[2])
assert any(r['rule'] == 'local_memory' and r['line'] == lc for r in k['rules']), k['rules']
l = [l for l in k['lines'] if l['line'] == lc][0]['exact']
assert 0 < l['local_requests'] <= l['global_requests'], l
assert sum(i['exact']['local_requests'] for i in k['instructions']) >= l['local_requests']
PY
    # the text report's exact line says how many of the line's requests went to the stacks
    read -r greq lreq < <(python3 -c "import json,sys; k=json.load(open('a.json'))['devices'][0]['kernels'][0]; l=[l for l in k['lines'] if l['line']==$lc][0]['exact']; print(l['global_requests'], l['local_requests'])")
    expect r.txt "; global $greq req ($lreq local, to the lanes' stacks), " "exact line: $lreq of $greq requests local"
    "$ws" profile -- "$ws" run --grid 4 --block 128 "$elf" atomic_wait zeros:129 50 > g.txt 2>&1 || bad "atomic_wait exited with $?"
    grep -q "local memory latency" g.txt && bad "a global atomic's wait called local" || ok "global waits are not local"
    ;;
xfile)
    # The kernel's line waits on a load in another file of its module
    # (xfile.elf, beside depth_kernels.elf): the producer is named with its
    # file, "xfile_load.c:5", not "line 5", which would point into the
    # kernel's own file.
    xelf=$(dirname "$elf")/xfile.elf xsrc=$(dirname "$src")
    use=$(grep -n "MARK_XUSE " "$xsrc/xfile_kernel.c" | cut -d: -f1)
    fetch=$(grep -n "MARK_FETCH " "$xsrc/xfile_load.c" | cut -d: -f1)
    "$ws" profile --period 4 -- "$ws" run --grid 2 --block 128 "$xelf" xfile iota:256 zeros:256 20 > r.txt 2>&1 ||
        bad "profile exited with $?"
    grep -E "^ +line $use: [0-9.]+% long_scoreboard, waiting on the load at xfile_load.c:$fetch \(lw " r.txt > /dev/null &&
        ok "line $use waits on the load at xfile_load.c:$fetch" || bad "line $use: $(grep "line $use:" r.txt)"
    grep -E "^  0x[0-9a-f]{8} .* xfile_kernel.c:$use .*; waits on xfile_load.c:$fetch \(lw " r.txt > /dev/null &&
        ok "its instruction waits on xfile_load.c:$fetch" || bad "instruction rows: $(grep 'waits on' r.txt)"
    grep -qE "xfile_kernel.c:$use .*waits on line $fetch \(lw|at line $fetch \(lw" r.txt && bad "a bare line $fetch for the other file's load" ||
        ok "no bare line number for the other file"
    ;;
rule_files)
    # One cause on lines of two files: xfile_strided's loads, half in a
    # function inlined from xfile_strided.h, shown at its own line with
    # --inline callee. They were two uncoalesced entries, one per file; now
    # one names both as file:line, and the JSON gives each line its file.
    xelf=$(dirname "$elf")/xfile.elf xsrc=$(dirname "$src")
    kl=$(grep -n "MARK_KLOAD " "$xsrc/xfile_kernel.c" | cut -d: -f1)
    hl=$(grep -n "MARK_HLOAD " "$xsrc/xfile_strided.h" | cut -d: -f1)
    "$ws" profile --inline callee --json x.json -- "$ws" run --grid 4 --block 256 "$xelf" xfile_strided zeros:65536 zeros:1024 20 \
        > r.txt 2>&1 || bad "profile exited with $?"
    [ "$(grep -c '^  - .*: uncoalesced: ' r.txt)" = 1 ] && ok "one uncoalesced entry" ||
        { bad "$(grep -c '^  - .*: uncoalesced: ' r.txt) uncoalesced entries"; grep -A4 Rules r.txt; }
    grep -qE "^  - (xfile_kernel.c:$kl and xfile_strided.h:$hl|xfile_strided.h:$hl and xfile_kernel.c:$kl): uncoalesced: 32.0 sectors per request.* \(figures of xfile_(kernel.c:$kl|strided.h:$hl), the heaviest of the 2 lines\)$" r.txt &&
        ok "it names xfile_kernel.c:$kl and xfile_strided.h:$hl" || bad "the entry: $(grep uncoalesced r.txt)"
    python3 - x.json "$kl" "$hl" <<'PY' && ok "JSON: one rule, each line with its file" || bad "JSON rule files"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
kl, hl = int(sys.argv[2]), int(sys.argv[3])
r = [x for x in k['rules'] if x['rule'] == 'uncoalesced']
assert len(r) == 1, k['rules']
got = {(x['file'].rsplit('/', 1)[-1], x['line']) for x in r[0]['lines']}
assert got == {('xfile_kernel.c', kl), ('xfile_strided.h', hl)}, got
assert r[0]['lines'][0]['file'] == r[0]['file'] and r[0]['lines'][0]['line'] == r[0]['line'], r[0]
PY
    ;;
occupancy_advice)
    # The latency rule advised raising occupancy also when every warp slot
    # was filled (examples/gather: theoretical 100%, achieved 99.2%). Two
    # blocks on four cores leave room (the grid limits it): the advice
    # stays; 64 blocks fill the slots: only more loads in flight remains.
    xelf=$(dirname "$elf")/xfile.elf xsrc=$(dirname "$src")
    use=$(grep -n "MARK_XUSE " "$xsrc/xfile_kernel.c" | cut -d: -f1)
    for g in 2 64; do
        "$ws" profile --period 4 -- "$ws" run --grid $g --block 128 "$xelf" xfile iota:256 zeros:8192 20 > r$g.txt 2>&1 ||
            bad "grid $g exited with $?"
    done
    expect r2.txt "xfile_kernel.c:$use: memory latency: " "grid 2: the latency rule"
    expect r2.txt "or raise occupancy so other warps issue meanwhile" "grid 2 (occupancy 25%): raise occupancy"
    grep -E "^  - xfile_kernel.c:$use: memory latency: .*every warp slot is already filled \(occupancy 9[0-9.]+%\): put independent loads in flight together \(unroll\)" r64.txt > /dev/null &&
        ok "grid 64: the slots are full, said so" || bad "grid 64: $(grep "xfile_kernel.c:$use: memory" r64.txt)"
    grep -q "raise occupancy" r64.txt && bad "grid 64: told to raise a full occupancy" || ok "grid 64: no advice to raise occupancy"
    ;;
aliasing)
    # lockstep's loop takes 20 cycles in every warp. Sampling points 2^N
    # apart saw each warp at every 4th of them only (selected 40% against
    # 30% of the exact warp-cycles at the default period), and at period
    # 2^0 the FIFO's overflow rotation lined up with the schedule (46%).
    # Dithered points must agree with the exact mix within the bound
    # docs/profiling.md gives: 3 standard errors + 0.5 points (the larger of
    # the binomial error and the per-point one, "state_errors").
    for pp in "10 1 20000" "10 4 20000" "0 1 2000" "1 1 2000"; do
        set -- $pp
        "$ws" profile -q --period $1 --passes $2 --json p$1_$2.json -- "$ws" run --grid 4 --block 128 "$elf" lockstep zeros:512 $3 \
            > r$1_$2.txt 2>&1 || bad "period $1 passes $2 exited with $?"
        python3 - p$1_$2.json <<'PY' && ok "period 2^$1, $2 pass(es): sampled states agree with the exact ones" || bad "period 2^$1, $2 pass(es)"
import json, math, sys
d = json.load(open(sys.argv[1]))['devices'][0]
L, k = d['launches'][0], d['kernels'][0]
ex = L['counters']['state_cycles']
te, n = sum(ex.values()), k['samples']
worst = (0, None)
for s in set(ex) | set(k['states']):
    p, q = ex.get(s, 0) / te, k['states'].get(s, 0) / n
    r = abs(p - q) / (3 * max(math.sqrt(p * (1 - p) / n), k['state_errors'].get(s, 0)) + 0.005)
    print('  %-18s exact %5.1f%%  sampled %5.1f%%  %.2f of the bound' % (s, 100 * p, 100 * q, r))
    worst = max(worst, (r, s))
assert worst[0] <= 1, worst
PY
    done
    ;;
clustered_bound)
    # shared_fill saturates the MIO: a full queue throttles every warp of a
    # core at once, so the records of one sampling point move together and
    # the binomial error, which counts them as independent draws, is far
    # too small (mio_throttle was 1.8 of that bound off). "state_errors"
    # takes the point as the unit (a ratio estimator's standard error); the
    # sampled mix lies within 3 of those + 0.5 points, and they are larger
    # than the binomial ones where the warps move together.
    "$ws" profile -q --period 4 --json c.json -- "$ws" run --grid 4 --block 256 "$elf" shared_fill zeros:1024 400 1 \
        > r.txt 2>&1 || bad "profile exited with $?"
    python3 - c.json <<'PY' && ok "sampled states within the per-point bound" || bad "per-point bound"
import json, math, sys
d = json.load(open(sys.argv[1]))['devices'][0]
L, k = d['launches'][0], d['kernels'][0]
ex = L['counters']['state_cycles']
te, n = sum(ex.values()), k['samples']
assert n == sum(k['states'].values()) and set(k['state_errors']) == set(k['states']), k['state_errors']
for s in sorted(set(ex) | set(k['states'])):
    p, q = ex.get(s, 0) / te, k['states'].get(s, 0) / n
    binom, point = math.sqrt(p * (1 - p) / n), k['state_errors'].get(s, 0)
    r = abs(p - q) / (3 * max(binom, point) + 0.005)
    print('  %-18s exact %5.1f%%  sampled %5.1f%%  binomial %.4f  per point %.4f  %.2f of the bound' %
          (s, 100 * p, 100 * q, binom, point, r))
    assert r <= 1, s
# the saturated state: its warps move together, its error is several binomial ones
p = ex['mio_throttle'] / te
assert p > 0.3 and k['state_errors']['mio_throttle'] > 3 * math.sqrt(p * (1 - p) / n), k['state_errors']
PY
    ;;
clustered_warning)
    # The low-sample warning counts the error as the agreement bound does,
    # the sampling point as the unit: shared_fill's warps move together
    # (a full MIO queue throttles a core's warps at once), so 1632 samples
    # at 51 points are less sure than 100 independent ones. Its figure is
    # the largest "state_errors" (or 50/sqrt(n) if larger); with more
    # points the warning goes.
    for p in 10 6; do
        "$ws" profile --period $p --json c$p.json -- "$ws" run --grid 4 --block 256 "$elf" shared_fill zeros:1024 400 1 \
            > r$p.txt 2>&1 || bad "period $p exited with $?"
    done
    python3 - c10.json r10.txt c6.json r6.txt <<'PY' && ok "warned at period 2^10 with the per-point error, not at 2^6" || bad "clustered warning"
import json, math, re, sys
for jf, rf, warned in ((sys.argv[1], sys.argv[2], True), (sys.argv[3], sys.argv[4], False)):
    k = json.load(open(jf))['devices'][0]['kernels'][0]
    n = k['samples']
    err = max(max(k['state_errors'].values()), 0.5 / math.sqrt(n))
    w = [s for s in open(rf) if s.startswith('warning: kernel shared_fill has only')]
    print(n, 'samples, largest error %.4f' % err, w)
    if not warned:
        assert err <= 0.05 and not w, (err, w)
        continue
    assert n >= 100 and err > 0.05 and len(w) == 1, (n, err, w)   # the binomial floor alone would not warn
    m = re.search(r'has only (\d+) samples at (\d+) sampling points: .* uncertain by up to (\d+) points', w[0])
    assert m and int(m.group(1)) == n and int(m.group(3)) == round(100 * err), (m and m.groups(), err)
PY
    ;;
latin1_path)
    # A source path that is not UTF-8 (a directory named in Latin-1): the
    # JSON and the Perfetto trace stay valid JSON, the byte written as
    # \u00e9; they held the raw byte, which no JSON reader accepts.
    d=$(printf 'k\351rnel')
    mkdir -p "$d" && cp "$src" "$d/depth_kernels.c" || bad "copying the kernel source"
    "$ws" cc -O1 -o "$d/k.elf" "$d/depth_kernels.c" > cc.txt 2>&1 || bad "warpscope cc: $(cat cc.txt)"
    "$ws" profile -q --period 4 --json p.json --trace t.json -- "$ws" run --grid 2 --block 64 "$d/k.elf" fma_chain zeros:128 50 \
        > r.txt 2>&1 || bad "profile exited with $?"
    grep -q 'k\\u00e9rnel/depth_kernels.c' p.json && ok "the byte is written as \\u00e9" || bad "no \\u00e9 in p.json"
    python3 - p.json t.json <<'PY' && ok "both files are valid JSON, the path read back" || bad "invalid JSON"
import json, sys
d = json.load(open(sys.argv[1], encoding='utf-8'))['devices'][0]
files = {i['file'] for i in d['kernels'][0]['instructions'] if i['file']}
assert any(f.endswith('k\u00e9rnel/depth_kernels.c') for f in files), files
json.load(open(sys.argv[2], encoding='utf-8'))
PY
    ;;
barrier_rule)
    # Warp 0 of each block loops while the block's other warps wait at the
    # barrier: the barrier_imbalance rule names the kernel, the barrier's
    # line, the share of the warp-cycles waiting there (the exact counters'),
    # and where the late warps were. A kernel whose warps do the same work
    # between its barriers must not get it.
    hb=$(line HEAVY_BARRIER) hw=$(line HEAVY_WORK) tb=$(line TREE_BARRIER) ta=$(line TREE_ADD)
    "$ws" profile --json h.json -- "$ws" run --grid 8 --block 256 "$elf" barrier_heavy zeros:2048 300 > h.txt 2>&1 ||
        bad "barrier_heavy exited with $?"
    grep -E "^  - depth_kernels.c:$hb: barrier imbalance: in kernel barrier_heavy, [0-9.]+% of its lines' warp-cycles wait at this barrier for the rest of their block \(barrier\); meanwhile the warps it waits for run line $hw in [0-9.]+% of their samples; some warps of the block do much more work before it than others .*: spread that work over all of the block's warps" h.txt > /dev/null &&
        ok "barrier_heavy: the rule on line $hb, the late warps at line $hw" || { bad "barrier_heavy: no rule on line $hb"; grep -A3 Rules h.txt; }
    python3 - h.json "$hb" <<'PY2' && ok "JSON: barrier_imbalance, metric = the line's barrier warp-cycles over the kernel's" || bad "JSON barrier_imbalance"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
hb = int(sys.argv[2])
r = [r for r in k['rules'] if r['rule'] == 'barrier_imbalance']
assert len(r) == 1 and r[0]['line'] == hb, k['rules']
# (of the kernel's lines: the exit drain, on none of them, left out)
total = sum(sum(l['exact']['cycles'].values()) for l in k['lines'] if l['file'] or l['line'] != 0xffff0000)
line = [l for l in k['lines'] if l['line'] == hb][0]
share = line['exact']['cycles']['barrier'] / total
assert abs(r[0]['metric'] - share) < 1e-6 and share >= 0.10, (r[0]['metric'], share)
assert ("%.1f%% of its lines' warp-cycles" % (100 * share)) in r[0]['text'], r[0]['text']
assert r[0]['warp_cycles'] == sum(line['exact']['cycles'].values())
print('barrier share %.1f%%' % (100 * share))
PY2
    # One warp per sample (round-robin): no sample shows the late warps
    # beside the waiting ones; the rule still fires on the exact counts.
    "$ws" profile --mode rr -- "$ws" run --grid 8 --block 256 "$elf" barrier_heavy zeros:2048 300 > rr.txt 2>&1 ||
        bad "--mode rr exited with $?"
    by_line rr.txt | grep -qE "^  - depth_kernels.c:$hb: barrier imbalance: in kernel barrier_heavy, [0-9.]+% of its lines' warp-cycles wait at this barrier for the rest of their block \(barrier\); some warps" &&
        ok "--mode rr: the rule, without the late warps' line" || bad "--mode rr: $(grep 'barrier imbalance' rr.txt)"
    # A tree sum in shared memory: one warp works at the last levels.
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" barrier_tree iota:2048 zeros:8 20 > t.txt 2>&1 ||
        bad "barrier_tree exited with $?"
    by_line t.txt | grep -qE "^  - depth_kernels.c:$tb: barrier imbalance: in kernel barrier_tree, [0-9.]+% .*; meanwhile the warps it waits for run line $ta in" &&
        ok "barrier_tree: the rule on line $tb, the late warps at line $ta" || { bad "barrier_tree"; grep -A3 Rules t.txt; }
    # Balanced: every warp loops as long before each barrier.
    "$ws" profile --json b.json -- "$ws" run --grid 8 --block 256 "$elf" barrier_balanced zeros:2048 100 > b.txt 2>&1 ||
        bad "barrier_balanced exited with $?"
    grep -q "barrier imbalance" b.txt && bad "balanced kernel: $(grep 'barrier imbalance' b.txt)" || ok "balanced kernel: no barrier rule"
    python3 -c "import json,sys; k=json.load(open('b.json'))['devices'][0]['kernels'][0]; sys.exit(any(r['rule'] == 'barrier_imbalance' for r in k['rules']) or not any(l['exact']['cycles'].get('barrier') for l in k['lines']))" &&
        ok "JSON: the balanced kernel waits at barriers, no barrier_imbalance" || bad "JSON balanced"
    ;;
line0_origins)
    # Code without a line (line 0: here the common tail clang makes of the
    # halo loads at -O2) is named by the lines it is reached from: in the
    # barrier rule (the late warps run it) and among the hot lines. Until
    # 2026-11-29 both said only "code without a line".
    "$ws" cc -O2 -o k2.elf "$src" > cc.txt 2>&1 || bad "warpscope cc -O2: $(cat cc.txt)"
    hl=$(line HALO_LEFT) hr=$(line HALO_RIGHT) ht=$(line HALO_TOP) hb=$(line HALO_BOTTOM) bar=$(line HALO_BARRIER)
    "$ws" profile -- "$ws" run --grid 4,4 --block 16,16 k2.elf halo_stencil iota:4096 zeros:4096 64 64 > h.txt 2>&1 ||
        bad "halo_stencil exited with $?"
    r=$(by_line h.txt | grep -E "^  - depth_kernels.c:$bar: barrier imbalance: in kernel halo_stencil, .*; meanwhile the warps it waits for run code without a line of halo_stencil \(reached from lines? [0-9, and]+\) in [0-9.]+% of their samples")
    [ -n "$r" ] && ok "barrier rule: the late warps' code without a line, by its lines" || { bad "barrier rule"; grep -A4 Rules h.txt; }
    from=$(sed -n 's/.*(reached from lines\? \([0-9, and]*\)).*/\1/p' <<<"$r" | tr -c '0-9\n' ' ')
    for n in $from; do
        case " $ht $hb " in *" $n "*) ;; *) bad "barrier rule names line $n, not a top or bottom halo line ($ht, $hb)" ;; esac
    done
    hot=$(grep -E "^ +[0-9]+ +[0-9.]+%  depth_kernels.c \(halo_stencil\), compiler-generated code without a line, reached from lines? [0-9, and]+$" h.txt)
    [ -n "$hot" ] && ok "hot lines: $hot" || { bad "hot lines: $(grep compiler-generated h.txt)"; }
    for n in $(sed 's/.*reached from lines\? //' <<<"$hot" | tr -c '0-9\n' ' '); do
        case " $hl $hr $ht $hb " in *" $n "*) ;; *) bad "hot line names line $n, not a halo line" ;; esac
    done
    # the JSON says the same: the line-0 entry's reached_from
    "$ws" profile --json h.json -- "$ws" run --grid 4,4 --block 16,16 k2.elf halo_stencil iota:4096 zeros:4096 64 64 \
        > /dev/null 2>&1 || bad "halo_stencil --json exited with $?"
    python3 - h.json "$hl $hr $ht $hb" "$(sed 's/.*reached from lines\? //' <<<"$hot" | tr -c '0-9\n' ' ')" <<'PY' &&
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
halo, shown = {int(x) for x in sys.argv[2].split()}, [int(x) for x in sys.argv[3].split()]
l0 = [l for l in k['lines'] if l['file'] and l['line'] == 0]
assert len(l0) == 1 and 'reached_from' in l0[0] and not l0[0]['more_origins'], l0
assert l0[0]['reached_from'] == shown and set(shown) <= halo, (l0[0]['reached_from'], shown, halo)
assert all('reached_from' not in l for l in k['lines'] if l['line']), 'only code without a line has it'
PY
        ok "JSON: reached_from, as the report" || bad "JSON reached_from"
    ;;
membar)
    # A warp in membar has issued its fence: its waits are the fence's, in
    # the samples and the exact counters, not the loop line's after it.
    fl=$(line FENCE) lp=$(line FENCE_LOOP)
    "$ws" profile --json m.json -- "$ws" run --grid 4 --block 64 "$elf" fence_loop zeros:256 20 > m.txt 2>&1 ||
        bad "fence_loop exited with $?"
    grep -A3 -E "^ +[0-9]+ +[0-9.]+%  depth_kernels.c:$fl \(fence_loop\)" m.txt | grep -qE "states: membar 100.0%" &&
        ok "report: the fence's line $fl holds the membar samples" || { bad "report: line $fl"; sed -n '/Hot source/,/Hot instr/p' m.txt; }
    grep -qE "^  0x[0-9a-f]{8} +[1-9][0-9]* +[0-9.]+%  fence rw, rw +depth_kernels.c:$fl  membar" m.txt &&
        ok "report: the fence instruction holds them" || bad "report: no fence row with membar"
    python3 - m.json "$fl" "$lp" <<'PY2' && ok "JSON: membar samples and warp-cycles on the fence, none on line $lp" || bad "JSON membar"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
fl, lp = int(sys.argv[2]), int(sys.argv[3])
mem = {i['line']: (i['states'].get('membar', 0), i['exact']['cycles'].get('membar', 0)) for i in k['lines'] if i['file']}
print('membar (samples, warp-cycles) by line:', mem)
f = [i for i in k['instructions'] if i['instruction'].startswith('fence')]
assert len(f) == 1 and f[0]['line'] == fl, f
assert f[0]['states'].get('membar', 0) > 0 and f[0]['exact']['cycles'].get('membar', 0) > 0, f
total = sum(i['exact']['cycles'].get('membar', 0) for i in k['instructions'])
assert f[0]['exact']['cycles']['membar'] == total, (f[0]['exact'], total)
assert sum(i['states'].get('membar', 0) for i in k['instructions']) == f[0]['states']['membar']
assert mem.get(lp, (0, 0)) == (0, 0), mem
PY2
    ;;
bandwidth_rule)
    # Coalesced stores faster than the LSU port carries them (4 sectors per
    # request): the line waits for room in its queue, the bandwidth rule
    # names it with the queue's share and the port's utilisation. So does
    # the MIO twin. The same kernels with stride 32 are uncoalesced or
    # bank-conflicted: those rules name them, not this one; a latency-bound
    # and a compute-bound kernel get no bandwidth rule either.
    fl=$(line FILL) sf=$(line SHARED_FILL)
    "$ws" profile --json f.json -- "$ws" run --grid 8 --block 256 "$elf" stream_fill zeros:262144 8 1 > f.txt 2>&1 ||
        bad "stream_fill exited with $?"
    by_line f.txt | grep -qE "^  - depth_kernels.c:$fl: bandwidth: in kernel stream_fill, [0-9.]+% of the line's waits are for room in the LSU queue \(lg_throttle\), whose port is busy [0-9.]+% of the cycles at 4.0 sectors per request: .*move fewer bytes per result" &&
        ok "stream_fill: the bandwidth rule on line $fl" || { bad "stream_fill: no bandwidth rule on line $fl"; grep -A4 Rules f.txt; }
    "$ws" profile --json m.json -- "$ws" run --grid 8 --block 256 "$elf" shared_fill zeros:2048 20 1 > m.txt 2>&1 ||
        bad "shared_fill exited with $?"
    by_line m.txt | grep -qE "^  - depth_kernels.c:$sf: bandwidth: in kernel shared_fill, [0-9.]+% of the line's waits are for room in the MIO queue \(mio_throttle\), which is busy [0-9.]+% of the cycles at 1.0 wavefronts per shared request: " &&
        ok "shared_fill: the bandwidth rule on line $sf" || { bad "shared_fill: no bandwidth rule on line $sf"; grep -A4 Rules m.txt; }
    for x in "f.json $fl lg_throttle lsu" "m.json $sf mio_throttle mio"; do
        set -- $x
        python3 - "$@" <<'PY2' && ok "$1: metric = the $3 share of line $2's waits, the text's utilisation = the launch's" || bad "$1: JSON bandwidth"
import json, sys
d = json.load(open(sys.argv[1]))['devices'][0]
line, state, unit = int(sys.argv[2]), sys.argv[3], sys.argv[4]
k = d['kernels'][0]
r = [r for r in k['rules'] if r['rule'] == 'bandwidth' and r['line'] == line]
assert len(r) == 1, k['rules']
c = [l for l in k['lines'] if l['line'] == line][0]['exact']['cycles']
waits = sum(v for s, v in c.items() if s not in ('selected', 'not_selected'))
share = c[state] / waits
ctr = d['launches'][0]['counters']
use = ctr['unit_busy_cycles'][unit] / (ctr['cycles'] * ctr['unit_instances'][unit])
print('%s: %.1f%% of the waits, %s busy %.1f%%' % (state, 100 * share, unit, 100 * use))
assert abs(r[0]['metric'] - share) < 1e-5 and share >= 0.5 and use >= 0.6, (r[0]['metric'], share, use)
assert ('%.1f%% of the line\'s waits' % (100 * share)) in r[0]['text'] and ('busy %.1f%%' % (100 * use)) in r[0]['text'], r[0]['text']
PY2
    done
    # must not fire: uncoalesced, bank-conflicted, latency-bound, compute-bound
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" stream_fill zeros:262144 8 32 > u.txt 2>&1 || bad "stride 32 exited with $?"
    expect u.txt "depth_kernels.c:$fl: uncoalesced: 32.0 sectors per request" "stream_fill stride 32: the uncoalesced rule"
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" shared_fill zeros:2048 20 32 > c.txt 2>&1 || bad "stride 32 exited with $?"
    expect c.txt "depth_kernels.c:$sf: bank conflicts: 32.0 wavefronts per shared request" "shared_fill stride 32: the bank-conflict rule"
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" stream_sum zeros:262144 zeros:2048 8 1 > l.txt 2>&1 || bad "stream_sum exited with $?"
    expect l.txt ": memory latency: " "stream_sum: the latency rule"
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" lockstep zeros:2048 200 > k.txt 2>&1 || bad "lockstep exited with $?"
    for f in u.txt c.txt l.txt k.txt; do
        grep -q "throttle" $f || bad "$f: no throttle at all (the case tests nothing)"
        grep -q ": bandwidth: " $f && bad "$f: $(grep ': bandwidth: ' $f | head -1)" || ok "$f: no bandwidth rule"
    done
    ;;
pipe_rule)
    # Lines that wait for a free ALU pipe while it is saturated got no rule
    # ("rules: none fired" under "compute-bound by the fdiv pipes"). The
    # float divides of fdiv_pipe (lines FDIV_PIPE and the next) get one that
    # names the fdiv pipes; a dependent fmadd chain (waits on its own
    # results) and a store stream (the LSU's queue) get none.
    fd=$(line FDIV_PIPE)
    "$ws" profile --json d.json -- "$ws" run --grid 8 --block 256 "$elf" fdiv_pipe zeros:2048 100 > d.txt 2>&1 ||
        bad "fdiv_pipe exited with $?"
    for l in $fd $((fd + 1)); do
        by_line d.txt | grep -qE "^  - depth_kernels.c:$l: pipe throughput: in kernel fdiv_pipe, [0-9.]+% of the line's waits are for a free pipe \(math_pipe_throttle\), and the fdiv pipes are busy [0-9.]+% of the cycles: .*fewer floating-point divides and square roots per result" &&
            ok "fdiv_pipe: pipe rule on line $l, the fdiv pipes named" || { bad "fdiv_pipe line $l"; grep -A3 Rules d.txt; }
    done
    rule_metric d.json pipe "c['math_pipe_throttle'] / (sum(c.values()) - c.get('selected', 0) - c.get('not_selected', 0))" &&
        ok "d.json: metric = the throttle's share of the line's waits" || bad "d.json: JSON pipe rule"
    # Integer divides by a divisor fixed for the loop: the div pipes, and
    # advice an integer can follow (until 2026-11-28: "a multiply by its
    # inverse", which an integer does not have).
    dv=$(line DIV_PIPE)
    "$ws" profile -- "$ws" run --grid 8 --block 128 "$elf" div_pipe zeros:1024 7 64 > v.txt 2>&1 || bad "div_pipe exited with $?"
    by_line v.txt | grep -qE "^  - depth_kernels.c:$dv: pipe throughput: in kernel div_pipe, [0-9.]+% of the line's waits are for a free pipe \(math_pipe_throttle\), and the div pipes are busy [0-9.]+% of the cycles: .*fewer divides and remainders per result shorten the waits \(by a power of two, a shift or a mask; by a divisor fixed for the loop, a multiply-high \(mulhu\) by its fixed-point reciprocal, computed once, and a shift" &&
        ok "div_pipe: pipe rule on line $dv, the div pipes and a multiply-high named" || { bad "div_pipe line $dv"; grep -A3 Rules v.txt; }
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" fma_chain zeros:128 200 > f.txt 2>&1 || bad "fma_chain exited with $?"
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" stream_fill zeros:262144 8 1 > s.txt 2>&1 || bad "stream_fill exited with $?"
    for f in f.txt s.txt; do
        grep -q ": pipe throughput: " $f && bad "$f: $(grep ': pipe throughput: ' $f | head -1)" || ok "$f: no pipe rule"
    done
    ;;
dependency_rule)
    # A chain of dependent integer operations with one warp per core: most
    # of the lines' warp-cycles wait for the operation before (wait), and
    # nothing else could issue, so the lines get the dependency rule (until
    # 2026-11-28 no rule fired). With every warp slot filled the schedulers
    # issue nearly every cycle: the same waits are hidden, and no rule.
    xb=$(line XS_B) xc=$(line XS_C)
    "$ws" profile --period 3 --json a.json -- "$ws" run --grid 1 --block 32 "$elf" alu_chain zeros:32 200 > a.txt 2>&1 ||
        bad "alu_chain exited with $?"
    for l in $xb $xc; do
        by_line a.txt | grep -qE "^  - depth_kernels.c:$l: dependent arithmetic: [0-9.]+% of its warp-cycles wait for an arithmetic result \(wait, on [a-z]+ a[0-9], a[0-9], [0-9]+\): each operation needs the one before, a fixed latency later, and no other warp had an instruction ready meanwhile: raise occupancy" &&
            ok "one warp: dependency rule on line $l, with its producer" || { bad "alu_chain line $l"; grep -A3 Rules a.txt; }
    done
    rule_metric a.json dependency "c['wait'] / sum(c.values())" && ok "a.json: metric = the line's wait share" ||
        bad "a.json: JSON dependency rule"
    "$ws" profile --json f.json -- "$ws" run --grid 8 --block 256 "$elf" alu_chain zeros:2048 200 > f.txt 2>&1 ||
        bad "alu_chain (full) exited with $?"
    grep -q ": dependent arithmetic: " f.txt && bad "full occupancy: $(grep ': dependent arithmetic: ' f.txt | head -1)" ||
        ok "full occupancy, issue slots used: no dependency rule"
    # ... but the issue rule, once, on the line that issues the most (the
    # loop's counter and branch), with its two most issued instructions
    # (until 2026-11-29 no rule fired, though the limits line said
    # compute-bound by issue)
    xl=$(line XS_LOOP)
    by_line f.txt | grep -qE "^  - depth_kernels.c:$xl: issue-bound: in kernel alu_chain the schedulers issue [0-9.]+% of their slots, .*this line issues [0-9.]+% of the kernel's warp-instructions; most issued there: (addi|bnez) [0-9.]+%, (addi|bnez) [0-9.]+% " &&
        ok "full occupancy: the issue rule on the loop's line $xl" || { bad "full occupancy: no issue rule on line $xl"; grep -A3 Rules f.txt; }
    [ "$(grep -c ': issue-bound: ' f.txt)" = 1 ] && ok "the issue rule once" || bad "issue rule $(grep -c ': issue-bound: ' f.txt) times"
    python3 - f.json <<'PY' && ok "f.json: issue rule metric = the issue slots used (> 0.8)" || bad "f.json: issue rule"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
r = [r for r in k['rules'] if r['rule'] == 'issue']
assert len(r) == 1 and 0.8 <= r[0]['metric'] <= 1, k['rules']
PY
    grep -q ": issue-bound: " a.txt && bad "one warp: $(grep ': issue-bound: ' a.txt | head -1)" || ok "one warp per core: no issue rule"
    # examples/bitonic: line 11 (two loads and their index arithmetic) is
    # half `wait`: the rule fires there exactly when those waits are 2 %
    # of the warp-cycles of the kernel's lines (39 % of bitonic_step's
    # warp-cycles are its exit drain, on no line, which the shares leave
    # out: 2.1 %, and the rule fires; with the drain counted, as until
    # 2026-11-28, they were 1.3 % and it did not; small_waits checks a
    # line under the bar). Its heavy lines keep their rules.
    "$example" > /dev/null 2>&1 || bad "bitonic fails unprofiled"
    "$ws" profile --json b.json -- "$example" > b.txt 2>&1 || bad "bitonic exited with $?"
    python3 - b.json <<'PY' && ok "bitonic: the dependency rule on line 11 exactly when its waits pass 2 % of the kernel's lines" || { bad "bitonic rules"; grep -A5 Rules b.txt; }
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
assert k['kernel'] == 'bitonic_step', k['kernel']
total = sum(sum(l['exact']['cycles'].values()) for l in k['lines'] if l['file'] or l['line'] != 0xffff0000)
waits = {l['line']: l['exact']['cycles'].get('wait', 0) for l in k['lines'] if l['file']}
line = sum(sum(l['exact']['cycles'].values()) for l in k['lines'] if l['line'] == 11)
assert line >= 0.02 * total and waits[11] >= 0.5 * line, (line, waits[11], total)
dep = [r['line'] for r in k['rules'] if r['rule'] == 'dependency']
assert dep == ([11] if waits[11] >= 0.02 * total else []), (k['rules'], waits[11] / total)
assert [r['line'] for r in k['rules'] if r['rule'] == 'latency'] == [12], k['rules']
PY
    # and the rule's own bar, on the loop: each line's waits are >= 2 % of the kernel's lines
    python3 - a.json <<'PY' && ok "alu_chain: the dependency lines' waits pass 2 % of the kernel" || bad "alu_chain waits"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
total = sum(sum(l['exact']['cycles'].values()) for l in k['lines'] if l['file'] or l['line'] != 0xffff0000)
dep = [l for r in k['rules'] if r['rule'] == 'dependency' for l in r['lines']]
assert len(dep) == 2, k['rules']
for d in dep:
    w = [l for l in k['lines'] if l['line'] == d['line']][0]['exact']['cycles']['wait']
    assert w >= 0.02 * total, (d, w, total)
PY
    ;;
roofline_units)
    # A launch whose float divide pipes or MIO are saturated is bound by
    # them, not "latency-bound" because neither the issue rate nor the
    # sector rate reaches 60 % of its peak.
    "$ws" profile --json d.json -- "$ws" run --grid 8 --block 256 "$elf" fdiv_pipe zeros:2048 100 > d.txt 2>&1 ||
        bad "fdiv_pipe exited with $?"
    expect d.txt "compute-bound by the fdiv pipes (" "fdiv_pipe: compute-bound by the fdiv pipes"
    "$ws" profile --json m.json -- "$ws" run --grid 8 --block 256 "$elf" shared_fill zeros:2048 20 32 > m.txt 2>&1 ||
        bad "shared_fill exited with $?"
    expect m.txt "memory-bound by the MIO (" "shared_fill: memory-bound by the MIO"
    "$ws" profile --json g.json -- "$ws" run --grid 8 --block 256 "$elf" stream_sum zeros:262144 zeros:2048 8 1 > g.txt 2>&1 ||
        bad "stream_sum exited with $?"
    expect g.txt "latency-bound: issue" "stream_sum: still latency-bound (no unit near its peak)"
    for x in "d.json compute fdiv" "m.json memory mio" "g.json latency -"; do
        set -- $x
        python3 - "$@" <<'PY2' && ok "$1: bound $2, bound_unit $3, its use as the counters say" || bad "$1: JSON limits"
import json, sys
L = json.load(open(sys.argv[1]))['devices'][0]['launches'][0]
lim, c = L['limits'], L['counters']
unit = None if sys.argv[3] == '-' else sys.argv[3]
use = {u: c['unit_busy_cycles'][u] / (c['cycles'] * c['unit_instances'][u]) for u in c['unit_busy_cycles']}
issue = lim['ipc'] / lim['peak_ipc']
mem = lim['sectors_per_cycle'] / lim['peak_sectors_per_cycle']
print(lim['bound'], lim['bound_unit'], 'issue %.3f memory %.3f' % (issue, mem), {u: round(v, 3) for u, v in use.items()})
assert lim['bound'] == sys.argv[2] and lim['bound_unit'] == unit, lim
assert issue < 0.6 and mem < 0.6, (issue, mem)         # the rates alone said latency
assert (use[unit] >= 0.6 and use[unit] == max(use.values())) if unit else max(use.values()) < 0.6, use
PY2
    done
    ;;
latency_port)
    # Loads that wait behind a saturated LSU port: unrolling or more warps
    # would only queue more, so the latency rule must not advise them;
    # with the port mostly idle it still does.
    su=$(line STREAM_SUM)
    "$ws" profile --json s.json -- "$ws" run --grid 8 --block 256 "$elf" stream_sum zeros:262144 zeros:2048 8 32 > s.txt 2>&1 ||
        bad "stream_sum 32 exited with $?"
    by_line s.txt | grep -qE "^  - depth_kernels.c:$su: memory latency: [0-9.]+% of its warp-cycles wait for a global load's result \(long_scoreboard\), while the LSU port is busy [0-9.]+% of the cycles: the loads wait their turn in its queue, so more loads in flight or more warps would only queue" &&
        ok "saturated port: the latency rule names it" || { bad "saturated port"; grep -A4 Rules s.txt; }
    grep "depth_kernels.c:$su: memory latency" s.txt | grep -q "unroll" && bad "saturated port: still told to unroll" ||
        ok "saturated port: no unroll advice"
    python3 - s.json <<'PY2' && ok "the port's utilisation in the text is the launch's" || bad "utilisation"
import json, sys
d = json.load(open(sys.argv[1]))['devices'][0]
c = d['launches'][0]['counters']
use = c['unit_busy_cycles']['lsu'] / (c['cycles'] * c['unit_instances']['lsu'])
r = [r for r in d['kernels'][0]['rules'] if r['rule'] == 'latency']
print('lsu busy %.1f%%' % (100 * use))
assert use >= 0.6 and r and all(('busy %.1f%%' % (100 * use)) in x['text'] for x in r), r
PY2
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" stream_sum zeros:262144 zeros:2048 8 1 > u.txt 2>&1 ||
        bad "stream_sum 1 exited with $?"
    expect u.txt "depth_kernels.c:$su: memory latency: " "idle port: the latency rule"
    expect u.txt "put independent loads in flight together (unroll)" "idle port: the unroll advice stays"
    ;;
small_waits)
    # A latency rule names one wait state of a line as the problem; the
    # waits must be 2 % of the warp-cycles of the kernel's lines, as a line
    # must be to be judged (a 2 % line half waiting is 1 %, which no change
    # to it can win back). warp0_work's test on the thread id waits mostly
    # on its CSR read, under 2 % of the lines: no MIO latency rule there
    # (until 2026-11-28 there was); the barrier keeps its rule. (The exit
    # drain is on no line: the shares leave it out, exit_drain.)
    wt=$(line WARP0_TEST) wb=$(line WARP0_BAR)
    "$ws" profile --period 6 --json w.json -- "$ws" run --grid 4 --block 256 "$elf" warp0_work zeros:1024 100 > w.txt 2>&1 ||
        bad "warp0_work exited with $?"
    python3 - w.json "$wt" "$wb" <<'PY' && ok "warp0_work: no rule on waits under 2 % of the kernel, the barrier's rule kept" || { bad "warp0_work rules"; grep -A4 Rules w.txt; }
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
wt, wb = int(sys.argv[2]), int(sys.argv[3])
total = sum(sum(l['exact']['cycles'].values()) for l in k['lines'] if l['file'] or l['line'] != 0xffff0000)
c = [l for l in k['lines'] if l['line'] == wt][0]['exact']['cycles']
line, ssb = sum(c.values()), c.get('short_scoreboard', 0)
# the case itself: judged (>= 2 %), mostly short_scoreboard, which is < 2 % of the kernel
assert line >= 0.02 * total and ssb >= 0.5 * line and ssb < 0.02 * total, (line, ssb, total)
assert not [r for r in k['rules'] if r['line'] == wt], k['rules']
assert [r['line'] for r in k['rules'] if r['rule'] == 'barrier_imbalance'] == [wb], k['rules']
PY
    ;;
mio_latency_rule)
    # Lines that wait mostly for an MIO result (short_scoreboard) got no
    # rule. Butterfly shuffles with the MIO 86 % busy wait their turn; the
    # store after a barrier waits on a CSR read with the MIO idle.
    sh=$(line SHUFFLE) wm=$(line WAIT_MIX)
    "$ws" profile --json s.json -- "$ws" run --grid 8 --block 256 "$elf" shuffle_storm zeros:2048 100 > s.txt 2>&1 ||
        bad "shuffle_storm exited with $?"
    by_line s.txt | grep -qE "^  - depth_kernels.c:$sh: MIO latency: [0-9.]+% of its warp-cycles wait for an MIO result \(short_scoreboard, on shfl.bfly [^)]*\), while the MIO is busy [0-9.]+% of the cycles: the requests wait their turn" &&
        ok "shuffle_storm: MIO latency on line $sh, the MIO's queue named" || { bad "shuffle_storm"; grep -A3 Rules s.txt; }
    "$ws" profile --json w.json -- "$ws" run --grid 8 --block 256 "$elf" wait_mix zeros:2048 50 > w.txt 2>&1 ||
        bad "wait_mix exited with $?"
    # (the store's line waits on its block ids, which each warp reads
    # once: a fixed cost per warp, not ids read again; until 2026-11-28
    # it was told to keep them in registers instead of reading them again)
    by_line w.txt | grep -qE "^  - depth_kernels.c:$wm: MIO latency: [0-9.]+% of its warp-cycles wait for an MIO result \(short_scoreboard[^)]*\): each warp reads its thread and block ids \(CSRs\) once and waits shared_latency cycles for them, a fixed cost per warp that reading them less cannot cut; the more work each thread does after it, the smaller its share: give each thread several elements \(a grid-stride loop\)$" &&
        ok "wait_mix: MIO latency on line $wm, ids read once" || { bad "wait_mix"; grep -A4 Rules w.txt; }
    by_line w.txt | grep "depth_kernels.c:$wm: " | grep -q "instead of reading them again" &&
        bad "wait_mix: told to stop reading ids it reads once" || ok "wait_mix: no advice to read the ids less"
    # ids read in every iteration of a loop (blockDim_x() in a loop
    # condition) keep the advice to read them less
    cl=$(line CSR_LOOP)
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" csr_loop zeros:2048 8 > c.txt 2>&1 || bad "csr_loop exited with $?"
    by_line c.txt | grep -E "^  - depth_kernels.c:$cl: MIO latency: " | grep -q "keep values such as thread ids in registers instead of reading them again" &&
        ok "csr_loop: ids read again, the advice to keep them" || { bad "csr_loop"; grep -A4 Rules c.txt; }
    for f in s.json w.json; do
        python3 - $f <<'PY2' && ok "$f: metric = the short_scoreboard share of the line" || bad "$f: JSON mio_latency"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
r = [r for r in k['rules'] if r['rule'] == 'mio_latency']
assert r, k['rules']
for x in r:
    c = [l for l in k['lines'] if l['line'] == x['line']][0]['exact']['cycles']
    share = c['short_scoreboard'] / sum(c.values())
    assert share >= 0.5 and abs(x['metric'] - share) < 1e-5, (x, share)
PY2
    done
    "$ws" profile -- "$ws" run --grid 8 --block 256 "$elf" lockstep zeros:2048 200 > l.txt 2>&1 || bad "lockstep exited with $?"
    grep -q "MIO latency" l.txt && bad "lockstep: $(grep 'MIO latency' l.txt)" || ok "lockstep: no MIO latency rule"
    # Waits on conflicted shared accesses: the bank-conflict rule's cause,
    # not reported twice (bank_mixed's lines wait on their own 2-way load)
    "$ws" profile -- "$ws" run --grid 4 --block 64 "$elf" bank_mixed zeros:256 > b.txt 2>&1 || bad "bank_mixed exited with $?"
    expect b.txt ": bank conflicts: " "bank_mixed: the bank-conflict rule"
    grep -q "MIO latency" b.txt && bad "bank_mixed: $(grep 'MIO latency' b.txt)" || ok "bank_mixed: no MIO latency rule besides it"
    ;;
divergent_waits)
    # A warp whose groups diverged waits at a fence or barrier one group
    # issued: its samples are that instruction's, as its exact warp-cycles
    # are, not the instruction the other group runs next (fence_handoff:
    # the spin loop's load; bar_split: the other arm's barrier).
    "$ws" profile --period 4 --json f.json -- "$ws" run --grid 4 --block 32 "$elf" fence_handoff zeros:1024 200 \
        > f.txt 2>&1 || bad "fence_handoff exited with $?"
    "$ws" profile --period 4 --json b.json -- "$ws" run --grid 4 --block 64 "$elf" bar_split zeros:256 200 \
        > b.txt 2>&1 || bad "bar_split exited with $?"
    for x in "f.json membar fence" "b.json barrier bar"; do
        set -- $x
        python3 - "$1" "$2" "$3" <<'PY2' && ok "$1: $2 samples only on the $3 whose exact warp-cycles are $2" || bad "$1: $2 samples elsewhere"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
state, op = sys.argv[2], sys.argv[3]
sampled = {i['pc']: i for i in k['instructions'] if i['states'].get(state)}
exact = {i['pc'] for i in k['instructions'] if i['exact']['cycles'].get(state)}
print(state, 'samples by instruction:', {hex(p): (i['instruction'], i['states'][state]) for p, i in sampled.items()})
assert sampled and exact, (sampled, exact)
assert all(i['instruction'].split()[0] == op for i in sampled.values()), sampled
assert set(sampled) <= exact, (sorted(sampled), sorted(exact))
PY2
    done
    ;;
divergence_rule)
    # An if/else on odd and even lanes runs each arm at SIMT 50.0 %: the
    # divergence rule fires on both (it fired only below 50 %).
    od=$(line ODD) ev=$(line EVEN) fs=$(line FLOAT_SUM) fm=$(line FLOAT_MAX)
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" odd_even zeros:128 100 > o.txt 2>&1 || bad "odd_even exited with $?"
    for l in $od $ev; do
        expect o.txt "depth_kernels.c:$l: divergence: SIMT efficiency 50.0%, 16.0 of 32 lanes run it on average; the branch around it splits warps" "odd_even: the divergence rule on line $l"
    done
    # A float atomicMax by compare-and-swap on one address: the lanes leave
    # the loop one by one. The divergence is the loop's, not a branch on threadIdx.
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" float_max zeros:1 10 > f.txt 2>&1 || bad "float_max exited with $?"
    expect f.txt "depth_kernels.c:$fm: divergence: SIMT efficiency" "float_max: a divergence rule on line $fm"
    expect f.txt "the lanes leave an atomic's compare-and-swap retry loop one by one" "it names the retry loop"
    grep "depth_kernels.c:$fm: divergence" f.txt | grep -q "threadIdx" && bad "float_max: blamed on a branch on threadIdx" ||
        ok "float_max: no threadIdx advice"
    expect f.txt "depth_kernels.c:$fm: atomic latency: " "float_max: the atomics rule too"
    # its branch needs each try's result: "use the old value later" (the
    # advice until 2026-11-28) cannot be followed; the retries are named
    by_line f.txt | grep -qE "^  - depth_kernels.c:$fm: atomic latency: .*; the line is an atomic retry loop \(lr/sc or compare-and-swap: .*\), whose branch needs each try's result, so it cannot be used later, and a lane that loses the word tries again, a round trip \(global_latency, 400 cycles\) each time: let fewer lanes compete for the word" &&
        ok "float_max: the atomics rule names the retry loop" || { bad "float_max: atomics text"; grep "atomic latency" f.txt; }
    grep "depth_kernels.c:$fm: atomic latency" f.txt | grep -q "use the old value later" && bad "float_max: told to use the old value later" ||
        ok "float_max: no advice to use the value later"
    # atomicAdd on a float is one amofadd.s: no loop, no divergence, the
    # atomics rule alone (until 2026-11-28 a compare-and-swap loop).
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" float_sum zeros:1 10 > s.txt 2>&1 || bad "float_sum exited with $?"
    grep -q "depth_kernels.c:$fs: divergence" s.txt && bad "float_sum: a divergence rule on a float atomicAdd" ||
        ok "float_sum: no divergence"
    # (its old value is unused: the next atomic waits to overwrite it)
    expect s.txt "depth_kernels.c:$fs: atomic completion: " "float_sum: the atomics rule"
    # A loop whose trip count depends on the lane: the lanes enter it
    # together and leave it at different iterations. The cause is the trip
    # counts, not a branch around the loop (until 2026-11-28 it said so).
    tc=$(line TRIPS)
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" trip_count zeros:128 16 > t.txt 2>&1 || bad "trip_count exited with $?"
    expect t.txt "depth_kernels.c:$tc: divergence: SIMT efficiency 44.1%, 14.1 of 32 lanes run it on average; the lanes enter its loop together and leave it at different iterations (a trip count that depends on the lane)" \
        "trip_count: the divergence rule names the loop's trip counts"
    grep "depth_kernels.c:$tc: divergence" t.txt | grep -q "branch around it" && bad "trip_count: blamed on a branch around the loop" ||
        ok "trip_count: no branch advice"
    ;;
shader_lanes)
    # examples/blend draws 6 vertices at a time: the pipeline starts a lane
    # per vertex, so its vertex shader runs on 6 of 32 lanes from its first
    # instruction, with no branch. The rule is partial warps, with advice
    # about draws, and the latency rule does not ask a shader's lane to
    # take several elements, which the pipeline decides. Until 2026-11-28
    # it was "divergence ... the branch around it splits warps (for example
    # a test on threadIdx % N)" and "give each thread several elements".
    "$ws" profile --json b.json -- "$example" > b.txt 2>&1 || bad "blend exited with $?"
    by_line b.txt | grep -qE "^  - blend_kernel.c:11: partial warps: SIMT efficiency 18.8%, 6.0 of 32 lanes run it on average; no branch splits the warps: the pipeline starts a lane per vertex, and the draws' vertices fill only 18.8% of their warps' lanes \(draws of few vertices\); draw more vertices per call" &&
        ok "blend_vs: partial warps, the draws' vertices named" || { bad "blend_vs: partial warps"; grep -A4 "Kernel blend_vs" b.txt; }
    grep -E "^  - blend_kernel.c" b.txt | grep -q "threadIdx" && bad "a shader told about a branch on threadIdx" || ok "no threadIdx branch on a shader"
    by_line b.txt | grep -qE "^  - blend_kernel.c:11: memory latency: [0-9.]+% of its warp-cycles wait for a global load's result \(long_scoreboard\); each lane of a vertex shader reads its own record once \(a lane per vertex, so it cannot take several\)" &&
        ok "blend_vs: latency advice fit for a shader" || { bad "blend_vs: latency"; grep "memory latency" b.txt; }
    grep -q "give each thread several elements" b.txt && bad "a shader told to take several elements" || ok "no several-elements advice on a shader"
    python3 -c "import json,sys; k=[k for k in json.load(open('b.json'))['devices'][0]['kernels'] if k['kernel'] == 'blend_vs'][0]; sys.exit(not any(r['rule'] == 'partial_warps' for r in k['rules']) or any(r['rule'] == 'divergence' for r in k['rules']))" &&
        ok "JSON: partial_warps, no divergence" || bad "JSON rule ids"
    # a compute kernel with a branch keeps the divergence rule
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" drain_heavy zeros:8192 50 > d.txt 2>&1 || bad "drain_heavy exited with $?"
    grep -qE "^  - depth_kernels.c:[0-9]+: divergence: " d.txt && ok "compute kernels keep divergence" || { bad "compute divergence"; grep -A3 Rules d.txt; }
    ;;
shader_rule)
    # A shader's lanes read and write their own pipeline records, a record
    # apart: the uncoalesced rule says so, not "swap the index roles",
    # which a shader cannot do.
    "$ws" profile --json c.json -- "$example" > c.txt 2>&1 || bad "cube exited with $?"
    by_line c.txt | grep -qE "^  - cube_kernel.c:[0-9]+: uncoalesced: [0-9.]+ sectors per request \(4 when 32 lanes read 32 neighbouring words\); each lane of a fragment shader reads its own interpolated record \(VOut\) and writes its own colour" &&
        ok "fragment shader: the records' layout named" || { bad "fragment shader"; grep uncoalesced c.txt; }
    by_line c.txt | grep -qE "^  - cube_kernel.c:[0-9]+: uncoalesced: .*each lane of a vertex shader reads its own record \(VIn\) and writes its own \(VOut\)" &&
        ok "vertex shader: the records' layout named" || bad "vertex shader"
    grep -q "swap the index roles" c.txt && bad "index advice on a shader: $(grep 'swap the index' c.txt | head -1)" ||
        ok "no index advice on shaders"
    # nor coalescing or shared memory in the busy-port latency advice: a
    # shader has neither (it advised "coalesced access, ... reuse through
    # shared memory" to the fragment shader)
    by_line c.txt | grep -qE "^  - cube_kernel.c:[0-9 and,]+: memory latency: .*LSU port is busy .*fewer sectors per result \(smaller records: fewer or smaller varyings" &&
        ok "fragment shader: the busy port's advice is about its records" || { bad "busy-port advice on a shader"; grep "memory latency" c.txt; }
    grep -q "reuse through shared memory\|coalesced access" c.txt && bad "coalescing advice on a shader: $(grep -o '.\{60\}reuse through shared memory' c.txt | head -1)" ||
        ok "no coalescing or shared-memory advice on shaders"
    python3 -c "import json,sys; k=json.load(open('c.json'))['devices'][0]['kernels']; sys.exit(not any(r['rule'] == 'uncoalesced' for x in k for r in x['rules']))" &&
        ok "JSON: the rule id stays uncoalesced" || bad "JSON rule id"
    # a compute kernel keeps the advice about its indexing
    "$ws" profile -- "$ws" run --grid 2 --block 64 "$elf" local_array zeros:256 50 > l.txt 2>&1 || bad "local_array exited with $?"
    grep -q "shader" l.txt && bad "a compute kernel told about shader records" || ok "compute kernels: no shader text"
    ;;
stride2)
    # A warp whose lanes each take every other element fetches twice the
    # sectors its elements need: uncoalesced, judged against the access
    # width (8 sectors for words, 2 for bytes), not a fixed 8.
    pw=$(line PAIR_WORDS) pb=$(line PAIR_BYTES) dc=$(line DOUBLE_COPY)
    "$ws" profile --json w.json -- "$ws" run --grid 16 --block 256 "$elf" pair_words zeros:8192 3 1 > w.txt 2>&1 ||
        bad "pair_words exited with $?"
    # (the advice names the pattern: until 2026-11-28 "swap the index roles")
    expect w.txt "depth_kernels.c:$pw: uncoalesced: 8.0 sectors per request (4 when 32 lanes read 32 neighbouring words); neighbouring lanes are two elements apart (each thread owning elements 2i and 2i + 1, say), so each request fetches twice the sectors its elements need: let thread i take elements i and i + the number of threads instead" \
        "stride-2 words: uncoalesced at line $pw, the pattern named"
    # A double array read and written as written, lane i element i: the
    # halves of each double are what doubles the sectors, not the indexing
    # (until 2026-11-28 it was told to swap the index roles).
    "$ws" profile -- "$ws" run --grid 16 --block 256 "$elf" copy_doubles iota:4096 zeros:4096 > d.txt 2>&1 ||
        bad "copy_doubles exited with $?"
    expect d.txt "depth_kernels.c:$dc: uncoalesced: 8.0 sectors per request (4 when 32 lanes read 32 neighbouring words); the line moves 64-bit values (a double, a long long) as this device does, two 32-bit words 4 bytes apart" \
        "doubles: the halves named at line $dc"
    grep "depth_kernels.c:$pw: uncoalesced" w.txt | grep -q "64-bit values" && bad "pair_words called 64-bit halves" ||
        ok "pair_words: not called 64-bit halves"
    "$ws" profile -- "$ws" run --grid 16 --block 256 "$elf" pair_words zeros:8192 3 0 > c.txt 2>&1 ||
        bad "pair_words 0 exited with $?"
    grep -q "uncoalesced" c.txt && bad "neighbouring words called uncoalesced: $(grep uncoalesced c.txt)" ||
        ok "neighbouring words: no uncoalesced rule"
    "$ws" profile -- "$ws" run --grid 16 --block 256 "$elf" pair_bytes zeros:8192 3 > b.txt 2>&1 ||
        bad "pair_bytes exited with $?"
    expect b.txt "depth_kernels.c:$pb: uncoalesced: 2.0 sectors per request (1 when 32 lanes read 32 neighbouring bytes); neighbouring lanes are two elements apart" \
        "stride-2 bytes: uncoalesced at line $pb, the pattern named"
    # Lane i on element i of an int array, loaded as its low byte (lbu):
    # 4 sectors where bytes need 1, but the index is right, so the advice
    # says what the width means (until 2026-11-28 "swap the index roles").
    lb=$(line INT_LOW_BIT)
    "$ws" profile -- "$ws" run --grid 16 --block 256 "$elf" int_low_bit iota:4096 zeros:4096 > n.txt 2>&1 ||
        bad "int_low_bit exited with $?"
    expect n.txt "depth_kernels.c:$lb: uncoalesced: 4.0 sectors per request (1 when 32 lanes read 32 neighbouring bytes); the lanes use one byte of a word each, 4 bytes apart: lane i on element i of a 4-byte array (an int whose load the compiler narrowed to the byte the line uses, as for \`in[i] & 1\`) or on every fourth byte of a char array; the sectors are those of whole words, so the indexing is not at fault" \
        "narrowed int load: uncoalesced at line $lb, the width named"
    grep "depth_kernels.c:$lb: uncoalesced" n.txt | grep -q "swap the index roles" && bad "narrowed load told to swap index roles" ||
        ok "narrowed load: not told to swap index roles"
    python3 -c "import json,sys; r=[r for r in json.load(open('w.json'))['devices'][0]['kernels'][0]['rules'] if r['rule']=='uncoalesced']; sys.exit(not (len(r)==1 and r[0]['metric']==8.0))" &&
        ok "JSON: one uncoalesced rule, metric 8.0" || bad "JSON uncoalesced"
    # A device of 16-lane warps: 16 neighbouring words fill 2 sectors, so
    # the stride-2 warp's 4 are twice that (until 2026-11-28 the rule
    # judged every warp against 32 lanes' 4 sectors and saw nothing).
    "$ws" profile -- "$ws" run --config lanes_per_warp=16 --grid 32 --block 128 "$elf" pair_words zeros:8192 3 1 > w16.txt 2>&1 ||
        bad "pair_words on 16 lanes exited with $?"
    expect w16.txt "depth_kernels.c:$pw: uncoalesced: 4.0 sectors per request (2 when 16 lanes read 16 neighbouring words); neighbouring lanes are two elements apart" \
        "16-lane warps: stride-2 words uncoalesced at line $pw"
    "$ws" profile -- "$ws" run --config lanes_per_warp=16 --grid 32 --block 128 "$elf" pair_words zeros:8192 3 0 > c16.txt 2>&1 ||
        bad "pair_words 0 on 16 lanes exited with $?"
    grep -q "uncoalesced" c16.txt && bad "16 lanes: neighbouring words called uncoalesced: $(grep uncoalesced c16.txt)" ||
        ok "16 lanes: neighbouring words, no uncoalesced rule"
    ;;
no_line_function)
    # Code without a line (the device library's 64-bit nand loop, built
    # without -g) is named by the function its symbol says holds it, in
    # every view: the lines, the instructions, the source view and JSON.
    celf=$(dirname "$elf")/calls.elf
    "$ws" profile --period 4 --source lib_nand64 --json n.json -- "$ws" run "$celf" lib_nand64 zeros:4 30 > n.txt 2>&1 ||
        bad "nand64 profile exited with $?"
    grep -qE "^ +[0-9]+ +[0-9.]+%  0x[0-9a-f]{8} \(no line information, in __atomic_fetch_nand_8\)$" n.txt &&
        ok "report: hot lines name the function" || { bad "report: no function on code without a line"; sed -n 1,40p n.txt; }
    grep -qE "^  0x[0-9a-f]{8} +[0-9]+ +[0-9.]+%  .*\(no line information, in __atomic_fetch_nand_8\)" n.txt &&
        ok "report: hot instructions name the function" || bad "report: hot instructions without the function"
    sed -n '/^Source of kernel lib_nand64/,$p' n.txt |
        grep -qE "^  0x[0-9a-f]{8} .*\(no line information, in __atomic_fetch_nand_8\)$" &&
        ok "source view names the function" || bad "source view: no function on code without a line"
    python3 - n.json <<'PY' && ok "JSON: lines without a file carry their function" || bad "JSON: no function on code without a line"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
nolines = [l for l in k['lines'] if l['file'] is None and l['line'] != 0xffff0000]
assert nolines and all(l['function'] == '__atomic_fetch_nand_8' for l in nolines), nolines
ins = [i for i in k['instructions'] if i['file'] is None and i['pc'] != 0xffff0000]
assert ins and all(i['function'] == '__atomic_fetch_nand_8' for i in ins), ins
PY
    ;;
call_sites)
    # Time in library code is also charged to the kernel's line that called
    # it (calls.elf, beside depth_kernels.elf): memset, a leaf without CFI,
    # from two lines with 1 and 4 parts of the bytes; printf, through the
    # device library's calls, from two lines.
    celf=$(dirname "$elf")/calls.elf csrc=$(dirname "$src")/calls_kernel.c
    cline() { grep -n "MARK_$1 " "$csrc" | cut -d: -f1; }
    small=$(cline MEMSET_SMALL) large=$(cline MEMSET_LARGE)
    for run in 1 2; do
        "$ws" profile --period 3 --json m$run.json -- "$ws" run --grid 2 --block 64 "$celf" lib_memset zeros:12800 20 > m$run.txt 2>&1 ||
            bad "memset profile exited with $?"
    done
    for l in $small $large; do
        grep -qE "^ +[0-9]+ +[0-9.]+%  calls_kernel.c:$l \(lib_memset\) -> memset$" m1.txt &&
            ok "report: line $l -> memset" || { bad "report: no call site at line $l"; sed -n 1,60p m1.txt; }
    done
    python3 - m1.json "$small" "$large" <<'PY' && ok "JSON: both call sites, 4:1, every sample outside the kernel's file charged" || bad "JSON call_sites"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
small, large = int(sys.argv[2]), int(sys.argv[3])
cs = {c['line']: c for c in k['call_sites']}
assert sorted(cs) == sorted([small, large]), k['call_sites']
for c in cs.values():
    assert c['file'].endswith('calls_kernel.c') and c['function'] == 'lib_memset' and c['callee'] == 'memset', c
    assert c['instruction'].startswith('jal'), c
    assert c['samples'] == sum(c['states'].values()), c
ratio = cs[large]['samples'] / cs[small]['samples']
assert 3.0 < ratio < 5.5, ratio
outside = sum(i['samples'] for i in k['instructions'] if not (i['file'] or '').endswith('calls_kernel.c') and i['samples'])
assert outside and outside == sum(c['samples'] for c in cs.values()), (outside, k['call_sites'])
print('ratio %.2f, %d samples outside' % (ratio, outside))
# A rule on memset's own line (assembly the user cannot edit) says so and
# names the kernel's calls that ran it, heaviest first (until 2026-11-28
# it advised swapping index roles in memset.S); the kernel's own lines
# are not told so.
lib = [r for r in k['rules'] if r['file'].endswith('memset.S')]
assert lib and all(r['outside_kernel_source'] for r in lib), k['rules']
for r in lib:
    assert ('outside the kernel\'s source file' in r['text'] and
            'run for the kernel\'s calls at calls_kernel.c:%d -> memset and calls_kernel.c:%d -> memset: '
            'if you cannot edit it, apply the advice to those calls' % (large, small) in r['text']), r['text']
own = [r for r in k['rules'] if r['file'].endswith('calls_kernel.c')]
assert all(not r['outside_kernel_source'] and 'outside the kernel' not in r['text'] for r in own), own
PY
    cmp -s m1.json m2.json && ok "call sites deterministic" || bad "two runs differ"
    # Two library functions called from two lines: advice on memset's own
    # lines names the memset call alone (until 2026-11-28 the kernel's two
    # heaviest calls, the printf one too).
    ms=$(cline MIXED_MEMSET) pf=$(cline MIXED_PRINTF)
    "$ws" profile --period 3 --json x.json -- "$ws" run --grid 2 --block 64 "$celf" lib_mixed zeros:51200 20 > x.txt 2>&1 ||
        bad "lib_mixed profile exited with $?"
    python3 - x.json "$ms" "$pf" <<'PY' && ok "lib_mixed: memset's rules name the memset call only" || bad "lib_mixed: rules on memset.S"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
ms, pf = sys.argv[2], sys.argv[3]
assert sorted(c['callee'] for c in k['call_sites']) == ['memset', 'ws_printf'], k['call_sites']
lib = [r for r in k['rules'] if r['file'].endswith('memset.S')]
assert lib, k['rules']
for r in lib:
    assert ("run for the kernel's call at calls_kernel.c:%s -> memset: if you cannot edit it, apply the advice to "
            "that call" % ms) in r['text'] and 'calls_kernel.c:%s' % pf not in r['text'], r['text']
PY
    # A line one call deep (fill_words, reached through fill_words_via):
    # its advice names the call that ran it, by the call sites' samples on
    # its lines, not the kernel's heaviest call of any kind (until
    # 2026-11-28 the memset call, which never reaches it); memset's own
    # lines still name the memset call alone.
    dm=$(cline DEEP_MEMSET) dv=$(cline DEEP_VIA)
    "$ws" profile --period 3 --json d.json -- "$ws" run --grid 2 --block 64 "$celf" lib_deep zeros:24576 16 > d.txt 2>&1 ||
        bad "lib_deep profile exited with $?"
    python3 - d.json "$dm" "$dv" <<'PY' && ok "lib_deep: each library line's advice names the call that ran it" || { bad "lib_deep: rules outside the kernel"; grep -A5 Rules d.txt; }
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
dm, dv = sys.argv[2], sys.argv[3]
cs = {c['line']: c for c in k['call_sites']}
assert cs[int(dm)]['callee'] == 'memset' and cs[int(dv)]['callee'] == 'fill_words_via', k['call_sites']
assert cs[int(dm)]['samples'] > cs[int(dv)]['samples'], k['call_sites']  # memset is the heavier call
def note(r):
    return r['text'][r['text'].index('outside the kernel'):]
deep = [r for r in k['rules'] if r['file'].endswith('calls_ops.c')]
lib = [r for r in k['rules'] if r['file'].endswith('memset.S')]
assert deep and lib and all(r['outside_kernel_source'] for r in deep + lib), k['rules']
for r in deep:
    assert [l['file'].endswith('calls_ops.c') for l in r['lines']] == [True] * len(r['lines']), r
    assert ("run for the kernel's call at calls_kernel.c:%s -> fill_words_via: if you cannot edit it, apply the "
            "advice to that call" % dv) in note(r) and 'calls_kernel.c:%s' % dm not in note(r), r['text']
for r in lib:
    assert ("run for the kernel's call at calls_kernel.c:%s -> memset: if you cannot edit it" % dm) in note(r) and \
        'calls_kernel.c:%s' % dv not in note(r), r['text']
PY
    short=$(cline PRINTF_SHORT) long=$(cline PRINTF_LONG)
    "$ws" profile --period 2 --json p.json -- "$ws" run --grid 1 --block 32 "$celf" lib_printf zeros:32 7 > p.txt 2>&1 ||
        bad "printf profile exited with $?"
    python3 - p.json "$short" "$long" <<'PY' && ok "printf: unwound through the library and its register-save millicode to lines $short and $long" || { bad "printf call sites"; grep -A8 "Calls out" p.txt; }
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
cs = {c['line']: c for c in k['call_sites']}
assert sorted(cs) == sorted([int(sys.argv[2]), int(sys.argv[3])]), k['call_sites']
assert all(c['callee'] == 'ws_printf' and c['function'] == 'lib_printf' and c['samples'] > 0 for c in cs.values())
# The callee is the function the kernel entered, for every sample: the
# lane unwound is one in the sampled code, not the lowest runnable one,
# which after `if (t == 1) printf(...)` waits in the kernel (until
# 2026-11-28 such samples named vfprintf, __udivdi3, memset... as callees).
for c in cs.values():
    assert c['callees'] == [{'name': 'ws_printf', 'samples': c['samples']}] and not c['other_callee_samples'], c
# Every sample in the library has its call site, libgcc's register-save
# and restore millicode's too (-msave-restore: __riscv_save_N is called
# through t0, not ra; until 2026-11-28 its samples had none), and printf's
# epilogue's tail jump to __riscv_restore_N (its CFI describes the jump as
# if the registers were already restored; until 2026-11-28 none). Only
# the exit stub's samples have no call site.
outside = sum(i['samples'] for i in k['instructions'] if i['function'] != 'lib_printf')
stub = sum(i['samples'] for i in k['instructions'] if i['pc'] == 0xffff0000)
save = sum(i['samples'] for i in k['instructions'] if (i['function'] or '').startswith('__riscv_save'))
restore = sum(i['samples'] for i in k['instructions'] if (i['function'] or '').startswith('__riscv_restore'))
lost = outside - sum(c['samples'] for c in cs.values())
assert save >= 20 and restore >= 20, (save, restore)
assert lost == stub, (lost, stub, outside)
# Every rule here is on printf's library lines: each names both calls.
assert k['rules'] and all(r['outside_kernel_source'] for r in k['rules']), k['rules']
for r in k['rules']:
    assert ('calls at calls_kernel.c:%s -> ws_printf and calls_kernel.c:%s -> ws_printf' % (sys.argv[3], sys.argv[2])
            in r['text']), r['text']
print('%d of %d samples outside lib_printf charged to a call site; %d in __riscv_save_N' % (outside - lost, outside, save))
PY
    ;;
call_site_callees)
    # One call through a pointer reaches two functions of another file
    # (calls_ops.c): the call site names both, each with its share, and
    # each share is exactly the samples in that function (until
    # 2026-11-28 only the first callee seen was named).
    celf=$(dirname "$elf")/calls.elf csrc=$(dirname "$src")/calls_kernel.c
    line=$(grep -n "MARK_INDIRECT " "$csrc" | cut -d: -f1)
    for run in 1 2; do
        "$ws" profile --period 3 --json i$run.json -- "$ws" run --grid 2 --block 128 "$celf" lib_indirect zeros:16384 64 \
            > i$run.txt 2>&1 || bad "profile exited with $?"
    done
    grep -qE "^ +[0-9]+ +[0-9.]+%  calls_kernel.c:$line \(lib_indirect\) -> fill_words_thrice [0-9.]+%, fill_words [0-9.]+%$" i1.txt &&
        ok "report: line $line -> both callees with their shares" || { bad "report: callees of line $line"; grep -A4 "Calls out" i1.txt; }
    python3 - i1.json "$line" <<'PY' && ok "JSON: callees' samples are those of their functions" || bad "JSON callees"
import json, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
(c,) = k['call_sites']
assert c['line'] == int(sys.argv[2]) and c['instruction'].startswith('jalr'), c
got = {e['name']: e['samples'] for e in c['callees']}
want = {}
for i in k['instructions']:
    if i['function'] in ('fill_words', 'fill_words_thrice'):
        want[i['function']] = want.get(i['function'], 0) + i['samples']
assert got == want and min(got.values()) > 0, (got, want)
assert c['callee'] == c['callees'][0]['name'] == 'fill_words_thrice', c  # the heaviest
assert c['other_callee_samples'] == 0 and sum(got.values()) == c['samples'], c
print('callees', got)
PY
    # (the program's own output, before the report, has its host time)
    cmp -s i1.json i2.json && cmp -s <(sed -n '/^== warpscope profile/,$p' i1.txt) <(sed -n '/^== warpscope profile/,$p' i2.txt) &&
        ok "deterministic" || bad "two runs differ"
    ;;
source_calls)
    # The source view (--source) shows under a line its calls out of the
    # kernel's source with the samples of the code they called, as the
    # report's "Calls out of the kernel's source" counts them (until
    # 2026-11-28 a memset's line showed only its own few samples).
    celf=$(dirname "$elf")/calls.elf csrc=$(dirname "$src")/calls_kernel.c
    "$ws" profile --period 3 --source lib_memset --json s.json -- "$ws" run --grid 2 --block 64 "$celf" lib_memset zeros:12800 20 \
        > s.txt 2>&1 || bad "profile exited with $?"
    sed -n '/^Source of kernel lib_memset/,$p' s.txt > view.txt
    python3 - s.json view.txt <<'PY' && ok "source view: each call row under its line, with the call site's samples" || { bad "source view call rows"; head -40 view.txt; }
import json, re, sys
k = json.load(open(sys.argv[1]))['devices'][0]['kernels'][0]
view = open(sys.argv[2]).read().splitlines()
assert len(k['call_sites']) == 2, k['call_sites']
for c in k['call_sites']:
    row = [i for i, t in enumerate(view) if re.match(r'^    0x%08x call +%d samples \(%.1f%%\) in the code it called -> memset$'
                                                   % (c['pc'], c['samples'], 100.0 * c['samples'] / k['samples']), t)]
    assert len(row) == 1, (c, view)
    # under the call site's own line: the nearest line row above it
    above = [t for t in view[:row[0]] if t.startswith('  calls_kernel.c:')][-1]
    assert above.startswith('  calls_kernel.c:%d ' % c['line']), (above, c)
print('call rows under lines', sorted(c['line'] for c in k['call_sites']))
PY
    ;;
baseline_calls)
    # --baseline compares the calls out of the kernel's source too: per
    # calling line, its share of the kernel's samples then and now, as the
    # two profiles' call_sites have them (until 2026-11-28 the comparison
    # left them out, so moving time between memset's two callers showed
    # only as memset.S's lines).
    celf=$(dirname "$elf")/calls.elf
    "$ws" profile -q --period 3 --json b1.json -- "$ws" run --grid 2 --block 64 "$celf" lib_memset zeros:12800 20 \
        > /dev/null 2>&1 || bad "first profile exited with $?"
    "$ws" profile -q --period 3 --json b3.json --baseline b1.json -- "$ws" run --grid 2 --block 64 "$celf" lib_memset zeros:12800 10 \
        > b3.txt 2>&1 || bad "second profile exited with $?"
    python3 - b1.json b3.json b3.txt <<'PY' && ok "baseline: each calling line's share then and now" || { bad "baseline call sites"; cat b3.txt; }
import json, sys
def shares(path):
    k = json.load(open(path))['devices'][0]['kernels'][0]
    return {c['line']: 100.0 * c['samples'] / k['samples'] for c in k['call_sites']}
old, new = shares(sys.argv[1]), shares(sys.argv[2])
text = open(sys.argv[3]).read()
assert sorted(old) == sorted(new) and len(new) == 2, (old, new)
head = "    calls out of the kernel's source, share of its samples (sampled):\n"
assert head in text, text
for line in new:
    row = '      calls_kernel.c:%d -> memset: %.1f%% -> %.1f%%\n' % (line, old[line], new[line])
    assert row in text.split(head)[1], (row, text)
print('shares', old, new)
PY
    ;;
baseline_renamed)
    # Two builds of one kernel in modules named apart (calls.elf, then a
    # copy, calls_o3.elf): the kernel pairs by its name, its lines are
    # compared, and the report says the module changed (until 2026-11-28
    # it was "new (not in the baseline)" and "only in the baseline").
    celf=$(dirname "$elf")/calls.elf
    cp "$celf" calls_o3.elf
    "$ws" profile -q --period 3 --json r1.json -- "$ws" run --grid 2 --block 64 "$celf" lib_memset zeros:12800 20 \
        > /dev/null 2>&1 || bad "first profile exited with $?"
    "$ws" profile -q --period 3 --json r2.json --baseline r1.json -- "$ws" run --grid 2 --block 64 calls_o3.elf lib_memset \
        zeros:12800 10 > r2.txt 2>&1 || bad "second profile exited with $?"
    expect r2.txt "  kernel lib_memset: module calls.elf -> calls_o3.elf, cycles " "the kernel paired across the rename"
    grep -q "only in the baseline\|new (not in the baseline)" r2.txt && bad "a side left unpaired: $(cat r2.txt)" ||
        ok "no kernel left unpaired"
    grep -Eq "^    line memset.S:[0-9]+: warp-cycles .*-> " r2.txt && ok "its lines compared" || bad "no line compared: $(cat r2.txt)"
    grep -Eq "^      calls_kernel.c:[0-9]+ -> memset: [0-9.]+% -> " r2.txt && ok "its calls compared" || bad "no call compared: $(cat r2.txt)"
    ;;
scan_example)
    # examples/scan moves elements t and t + 256 of a block, not 2t and
    # 2t + 1: its global accesses take the 4 sectors per request that 32
    # neighbouring words need, and no uncoalesced rule fires (the rule was
    # right when the pairs fetched every sector twice; until 2026-11-28).
    "$example" > /dev/null 2>&1 || bad "scan fails unprofiled"
    "$ws" profile --json s.json -- "$example" > s.txt 2>&1 || bad "scan exited with $?"
    grep -q "^scan  *PASS" s.txt && ok "scan passes under the profiler" || bad "scan results"
    python3 - s.json <<'PY' && ok "every global access line of both kernels at 4 sectors per request, no uncoalesced rule" || { bad "scan coalescing"; grep -E "uncoalesced|sectors/req" s.txt; }
import json, sys
ks = {k['kernel']: k for k in json.load(open(sys.argv[1]))['devices'][0]['kernels']}
assert sorted(ks) == ['scan_add', 'scan_blocks'], sorted(ks)
for name, k in ks.items():
    assert not [r for r in k['rules'] if r['rule'] == 'uncoalesced'], (name, k['rules'])
    lines = [l for l in k['lines'] if (l['file'] or '').endswith('scan_kernel.c') and l['exact']['global_requests']]
    assert lines, name
    for l in lines:
        e = l['exact']
        # one word per lane: 4 sectors per request (a partial warp fewer)
        assert e['global_sectors'] <= 4 * e['global_requests'], (name, l['line'], e)
print('lines', {n: sorted(l['line'] for l in k['lines'] if l['exact']['global_requests']) for n, k in ks.items()})
PY
    # the exit drain's stores: scan_blocks' second output store (line 44),
    # which every warp issues after line 43's and so completes last (a
    # static walk named 43, 44 and a block total's store, 29, until the
    # counters counted it, 2026-11-29), never its prologue's register
    # saves to the stack (sw s3, 0(sp) at line 14)
    grep -qE "^    the stores it waits for, [^:]*: scan_kernel.c:44 \(sw .*, last for 4104 warps, 4104 warp-instr, 4.0 sectors per request\)$" s.txt &&
        ok "scan_blocks: the drain waits for line 44, for every warp" || { bad "scan_blocks: drain stores"; grep "stores it waits" s.txt; }
    grep "stores it waits" s.txt | grep -q "(sp)" && bad "a stack store named: $(grep 'stores it waits' s.txt)" || ok "no stack store named"
    ;;
*) bad "unknown case $case_" ;;
esac
[ $fail = 0 ] && echo "PASS $case_" || echo "FAILED $case_"
exit $fail
