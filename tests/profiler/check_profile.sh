#!/bin/bash
# End-to-end checks of `warpscope profile` on prof_app (stall_kernels.c).
# usage: check_profile.sh CASE WARPSCOPE PROF_APP STALL_ELF STALL_SRC WORKDIR
set -u
case_=$1 ws=$2 app=$3 elf=$4 src=$5 dir=$6/e2e_$1
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
line() { grep -n "MARK_$1 " "$src" | cut -d: -f1; }
# profile KERNEL [options...]: report in $dir/KERNEL.txt, JSON in $dir/KERNEL.json
profile() {
    local k=$1; shift
    "$ws" profile --period 3 "$@" --json "$dir/$k.json" -- "$app" "$elf" "$k" > "$dir/$k.txt" 2> "$dir/$k.err"
}
# The hottest source line of the first kernel section, and its cause sentence.
hot_line() { sed -n '/Hot source lines/{n;n;p;q}' "$1"; }
expect() { # expect FILE TEXT WHAT
    if grep -qF -- "$2" "$1"; then ok "$3"; else bad "$3: '$2' not in $1"; sed -n 1,60p "$1"; fi
}
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

case $case_ in
dep_load)
    profile dep_load || bad "profile exited with $?"
    use=$(line USE) load=$(line LOAD)
    hot_line dep_load.txt | grep -q "stall_kernels.c:$use (dep_load)" && ok "hottest line is the use, line $use" ||
        bad "hottest line is not line $use: $(hot_line dep_load.txt)"
    expect dep_load.txt "line $use: " "cause line printed"
    grep -E "line $use: [0-9.]+% long_scoreboard, waiting on the load at line $load \(lw " dep_load.txt >/dev/null &&
        ok "long_scoreboard at line $use attributed to the load at line $load" ||
        bad "no long_scoreboard attribution to line $load: $(grep "line $use:" dep_load.txt)"
    ;;
memory_module)
    profile mem:dep_load || bad "profile exited with $?"
    expect mem:dep_load.txt "(<memory>)" "module named as loaded"
    expect mem:dep_load.txt "stall_kernels.c:$(line USE) (dep_load)" "source lines of a module loaded from memory"
    ;;
barrier)
    profile barrier_wait || bad "profile exited with $?"
    b=$(line BARRIER)
    hot_line barrier_wait.txt | grep -q "stall_kernels.c:$b (barrier_wait)" && ok "hottest line is the barrier, line $b" ||
        bad "hottest line is not the barrier line $b: $(hot_line barrier_wait.txt)"
    grep -E "line $b: [0-9.]+% barrier" barrier_wait.txt >/dev/null && ok "barrier stall at line $b" ||
        bad "no barrier stall at line $b"
    ;;
bank_conflict)
    profile bank_conflict || bad "profile exited with $?"
    c=$(line CONFLICT)
    hot_line bank_conflict.txt | grep -q "stall_kernels.c:$c (bank_conflict)" && ok "hottest line is line $c" ||
        bad "hottest line is not line $c: $(hot_line bank_conflict.txt)"
    grep -E "line $c: [0-9.]+% (mio_throttle|short_scoreboard)" bank_conflict.txt >/dev/null &&
        ok "shared-memory stall at line $c" || bad "no mio_throttle/short_scoreboard at line $c"
    n=$(sed -n 's/.*shared bank conflicts \([0-9]*\).*/\1/p' bank_conflict.txt)
    [ "${n:-0}" -gt 0 ] && ok "bank conflicts counted: $n" || bad "no bank conflicts counted"
    json bank_conflict.json "assert d['devices'][0]['launches'][0]['counters']['bank_conflicts'] == $n" &&
        ok "JSON holds the same bank conflict count" || bad "JSON bank conflicts differ from the report"
    ;;
arith)
    profile arith_chain || bad "profile exited with $?"
    grep -A1 "^Kernel arith_chain" arith_chain.txt | grep -q "states: wait " && ok "arithmetic chain: wait dominates" ||
        bad "wait is not the main state: $(grep -A1 '^Kernel arith_chain' arith_chain.txt)"
    ;;
passes)
    profile dep_load --passes 1 && mv dep_load.json p1.json || bad "passes 1 failed"
    profile dep_load --passes 4 && mv dep_load.json p4.json || bad "passes 4 failed"
    expect dep_load.txt "4 passes" "report names the passes"
    python3 - p1.json p4.json <<'EOF' && ok "4 passes: ~4x the samples, identical cycles" || bad "passes check"
import json, sys
a = json.load(open(sys.argv[1]))['devices'][0]['launches'][0]
b = json.load(open(sys.argv[2]))['devices'][0]['launches'][0]
print('samples', a['samples'], b['samples'], 'cycles', a['cycles'], b['cycles'])
assert a['cycles'] == b['cycles'] and a['cycles'] > 0
assert b['passes'] == 4 and b['error'] is None
assert 3.6 * a['samples'] <= b['samples'] <= 4.4 * a['samples']
# shifted phases: new sampling points, not the same ones four times
assert 3.6 * a['sample_points'] <= b['sample_points'] <= 4.4 * a['sample_points'], (a['sample_points'], b['sample_points'])
EOF
    ;;
rr)
    profile dep_load && mv dep_load.json all.json || bad "mode all failed"
    profile dep_load --mode rr && mv dep_load.json rr.json || bad "mode rr failed"
    expect dep_load.txt "one warp per sample (round-robin)" "report names the mode"
    python3 - all.json rr.json <<'EOF' && ok "round-robin: one record per sample, same cycles" || bad "rr check"
import json, sys
a, b = (json.load(open(f))['devices'][0] for f in sys.argv[1:3])
assert b['options']['mode'] == 'rr' and a['options']['mode'] == 'all'
la, lb = a['launches'][0], b['launches'][0]
print('samples all', la['samples'], 'rr', lb['samples'], 'cycles', la['cycles'], lb['cycles'])
assert la['cycles'] == lb['cycles']
assert 0 < lb['samples'] < la['samples']
assert lb['samples'] <= la['cycles'] // 8 * 4 + 4   # at most one per core per sample point
EOF
    ;;
dropped)
    profile dep_load --buffer 64 || bad "profile exited with $?"
    expect dep_load.txt "samples were dropped because the event buffer was full; raise --buffer" "dropped samples reported"
    # 64 samples kept: the low-sample warning must not advise sampling more
    # (a lower --period or more passes), which the full buffer would drop too
    expect dep_load.txt "warning: kernel dep_load has only 64 samples at 8 sampling points: its percentages are uncertain by up to 16 points (one standard error, the sampling point as the unit); the event buffer was full: raise --buffer" "low-sample advice: raise --buffer"
    grep -q "lower --period or add --passes" dep_load.txt && bad "advised to sample more into a full buffer" ||
        ok "no advice to sample more"
    json dep_load.json "l = d['devices'][0]['launches'][0]; assert l['samples'] == 64 and l['dropped'] > 0, l" &&
        ok "JSON: 64 kept, the rest dropped" || bad "dropped counts"
    ;;
json_trace)
    "$ws" profile --period 3 --passes 2 --json p.json --trace t.json -- "$app" "$elf" dep_load > r.txt 2> r.err ||
        bad "profile failed"
    python3 -m json.tool p.json > /dev/null && ok "JSON parses" || bad "JSON does not parse"
    samples=$(sed -n '/^Kernels/{n;n;p;q}' r.txt | awk '{print $1}')
    cycles=$(sed -n '/^Kernels/{n;n;p;q}' r.txt | awk '{print $3}')
    json p.json "k = d['devices'][0]['kernels'][0]; assert k['kernel'] == 'dep_load'; assert k['samples'] == $samples, k['samples']; assert k['cycles'] == $cycles; assert sum(k['states'].values()) == $samples; assert sum(l['samples'] for l in k['lines']) == $samples" &&
        ok "JSON holds the report's numbers ($samples samples, $cycles cycles)" || bad "JSON numbers differ from the report"
    use=$(line USE)
    json p.json "l = d['devices'][0]['kernels'][0]['lines'][0]; assert l['line'] == $use and l['stall'] == 'long_scoreboard' and l['waiting_on']['line'] == $(line LOAD)" &&
        ok "JSON hottest line $use with its cause" || bad "JSON hottest line"
    # (a long period too: a sample's interval then reaches past the launch end)
    "$ws" profile -q --period 9 --passes 3 --trace t9.json -- "$app" "$elf" dep_load > /dev/null 2>&1 ||
        bad "profile --period 9 failed"
    python3 - t.json t9.json <<'EOF' && ok "trace is trace-event JSON with per-warp state slices" || bad "trace check"
import json, sys
for name in sys.argv[1:]:
  ev = json.load(open(name))['traceEvents']
  states = {'selected', 'not_selected', 'wait', 'long_scoreboard', 'short_scoreboard', 'mio_throttle', 'lg_throttle',
            'math_pipe_throttle', 'barrier', 'membar', 'branch_resolving', 'no_instructions', 'dispatch_stall',
            'sleeping', 'drain', 'misc'}
  slices = [e for e in ev if e['ph'] == 'X' and e['name'] in states]
  assert slices and all(e['dur'] > 0 and e['ts'] >= 0 for e in slices)
  assert any(e['ph'] == 'M' and e['name'] == 'thread_name' for e in ev)
  assert any(e['ph'] == 'X' and e['name'] == 'dep_load' for e in ev)
  tracks = {(e['pid'], e['tid']) for e in slices}
  assert len(tracks) > 1
  for tr in tracks:  # slices of one warp never overlap
      ss = sorted((e['ts'], e['dur']) for e in slices if (e['pid'], e['tid']) == tr)
      assert all(a[0] + a[1] <= b[0] for a, b in zip(ss, ss[1:])), tr
  assert any(e['ph'] == 'M' and e['args']['name'] == 'device 1 core 0' for e in ev)
  # a warp's slices end with its launch (the last sample's interval is cut there)
  launch = {e['args']['launch']: e['ts'] + e['dur'] for e in ev if e['ph'] == 'X' and e['pid'] % 1024 == 1023}
  late = [e for e in slices if e['ts'] + e['dur'] > launch[e['args']['launch']]]
  assert not late, (len(late), late[0], launch)
  print(len(slices), 'slices on', len(tracks), 'tracks')
EOF
    ;;
determinism)
    for i in 1 2; do
        "$ws" profile --period 3 --passes 2 --json p$i.json --trace t$i.json -- "$app" "$elf" bank_conflict > r$i.txt 2>&1 ||
            bad "run $i failed"
    done
    cmp p1.json p2.json && ok "JSON byte-identical" || bad "JSON differs between runs"
    cmp t1.json t2.json && ok "trace byte-identical" || bad "trace differs between runs"
    sed '/ms (/d' r1.txt > a.txt; sed '/ms (/d' r2.txt > b.txt
    cmp a.txt b.txt && ok "report identical" || bad "report differs between runs"
    ;;
results)
    for k in dep_load barrier_wait bank_conflict arith_chain multi queued printf; do
        plain=$("$app" "$elf" $k) || bad "$k failed without the profiler"
        prof=$("$ws" profile -q --passes 3 -- "$app" "$elf" $k 2>/dev/null) || bad "$k failed under the profiler"
        # Lines printed by different blocks come in execution order, which
        # differs between functional mode and the profiler's timing mode now
        # that blocks run on different cores (docs/device.md, "printf").
        [ "$k" = printf ] && { plain=$(echo "$plain" | sort); prof=$(echo "$prof" | sort); }
        [ "$plain" = "$prof" ] && ok "$k: same output under the profiler ($(echo $plain))" ||
            bad "$k: output differs: '$plain' vs '$prof'"
    done
    ;;
multi)
    profile multi --passes 2 || bad "profile exited with $?"
    expect multi.txt "device 1: 3 launches, 2 kernels" "device 1 section"
    expect multi.txt "device 2: 3 launches, 2 kernels" "device 2 section"
    json multi.json "assert len(d['devices']) == 2; ks = {k['kernel']: k for k in d['devices'][1]['kernels']}; assert ks['arith_chain']['launches'] == 2; assert [l['id'] for l in d['devices'][0]['launches']] == [1, 2, 3]; assert ks['arith_chain']['samples'] == sum(l['samples'] for l in d['devices'][1]['launches'] if l['kernel'] == 'arith_chain')" &&
        ok "JSON: two devices, per-launch entries, per-kernel sums" || bad "multi-device JSON"
    # --baseline compares device N with device N: device 2 3x slower in the baseline
    python3 - multi.json slow2.json <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
for k in p['devices'][1]['kernels']: k['cycles'] *= 3
json.dump(p, open(sys.argv[2], 'w'))
EOF
    "$ws" profile -q --period 3 --baseline slow2.json -- "$app" "$elf" multi > cmp.txt 2>&1 || bad "--baseline exited with $?"
    sed -n '/^  device 2:/,$p' cmp.txt | grep -qE "^    kernel arith_chain: cycles [0-9]+ -> [0-9]+ \(-66\.7%\)" &&
        sed -n '/^  device 1:/,/^  device 2:/p' cmp.txt | grep -qE "^    kernel arith_chain: cycles [0-9]+ -> [0-9]+ \(\+0\.0%\)" &&
        ok "--baseline: each device with its own" || { bad "--baseline per device"; cat cmp.txt; }
    ;;
errors)
    "$ws" profile --passes 0 -- "$app" > o.txt 2>&1; rc=$?
    [ $rc = 2 ] && grep -q "passes 0: expected a number from 1 to 64" o.txt && ok "bad --passes" || bad "bad --passes (rc $rc)"
    "$ws" profile --period 0 --passes 2 -- "$app" > o.txt 2>&1; rc=$?
    [ $rc = 2 ] && grep -q "room for at most 1 pass(es) at different cycles" o.txt && ok "--passes over the period" ||
        bad "--passes over the period (rc $rc): $(cat o.txt)"
    "$ws" profile --mode sideways -- "$app" > o.txt 2>&1; rc=$?
    [ $rc = 2 ] && grep -q "expected 'all' or 'rr'" o.txt && ok "bad --mode" || bad "bad --mode (rc $rc)"
    "$ws" profile --frobnicate -- "$app" > o.txt 2>&1; rc=$?
    [ $rc = 2 ] && grep -q "unknown option '--frobnicate'" o.txt && ok "unknown option" || bad "unknown option (rc $rc)"
    "$ws" profile --period 3 > o.txt 2>&1; rc=$?
    [ $rc = 2 ] && grep -q "no program to run" o.txt && ok "no program" || bad "no program (rc $rc)"
    "$ws" profile -- ./no-such-program > o.txt 2>&1; rc=$?
    [ $rc = 127 ] && grep -q "cannot run './no-such-program': No such file or directory" o.txt &&
        ok "missing program" || bad "missing program (rc $rc)"
    "$ws" profile --period 3 -- "$app" "$elf" arith_chain fail > o.txt 2>&1; rc=$?
    [ $rc = 3 ] && grep -q "exited with status 3" o.txt && grep -q "^Kernel arith_chain" o.txt &&
        ok "failing program: status passed on, report still printed" || bad "failing program (rc $rc)"
    "$ws" profile -- true > o.txt 2>&1; rc=$?
    [ $rc = 1 ] && grep -q "opened no warpscope device" o.txt && ok "program without a device: exit 1" || bad "no device (rc $rc)"
    "$ws" profile --period 3 --passes 3 --json f.json -- "$app" "$elf" fault > o.txt 2>&1; rc=$?
    [ $rc = 4 ] && grep -q "dep_load grid (4,1,1) block (64,1,1): [0-9]* samples ([0-9]* dropped), 1 pass, [0-9]* sampling points, failed: WS_ERR_KERNEL_FAULT" o.txt &&
        json f.json "l = d['devices'][0]['launches'][0]; assert l['status'] == 'WS_ERR_KERNEL_FAULT' and l['passes'] == 1" &&
        ok "kernel fault: launch reported failed, not replayed" || bad "kernel fault (rc $rc)"
    WARPSCOPE_PROFILE="colour=red" "$app" "$elf" arith_chain > o.txt 2>&1; rc=$?
    [ $rc != 0 ] && grep -q "WARPSCOPE_PROFILE: unknown key 'colour'" o.txt && ok "bad WARPSCOPE_PROFILE" ||
        bad "bad WARPSCOPE_PROFILE (rc $rc)"
    ;;
*) bad "unknown case $case_" ;;
esac
[ $fail = 0 ] && echo "PASS $case_" || echo "FAILED $case_"
exit $fail
