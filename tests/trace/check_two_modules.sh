#!/bin/bash
# Two modules with a kernel called `work`: every place the tracer names a
# launch names its module too (the report, --read in text, JSON and
# Perfetto, --host-time), and each launch's lines come from its own module
# even when both modules have one name.
#   check_two_modules.sh WARPSCOPE two_modules_app work_a.elf work_b.elf
set -u
ws=$1 app=$2 a=$3 b=$4
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$ws" trace --tool dump --host-time -o two.wst -- "$app" memory "$a" "$b" > two.out 2> two.err
grep '^launch' two.out
grep -q 'sum 4096' two.out && ok || bad "the program's results: $(grep sum two.out)"
grep -q '^launch 1: work (<memory>) grid (2,1,1)' two.out && grep -q '^launch 2: work (<memory 2>) grid (2,1,1)' two.out &&
    ok || bad "report: $(grep '^launch' two.out)"
grep -q '^warpscope trace: launch 1 work (<memory>) host time: launch [0-9.]* s' two.err &&
    grep -q '^warpscope trace: launch 2 work (<memory 2>) host time' two.err && ok || bad "host time: $(cat two.err)"
"$ws" trace --read two.wst > read.out
grep -q '^launch 1 work (<memory>) grid' read.out && grep -q '^launch 2 work (<memory 2>) grid' read.out &&
    ok || bad "--read: $(grep '^launch' read.out)"
"$ws" trace --read two.wst --format jsonl | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
heads = [(r["launch"], r["kernel"], r["module"]) for r in recs if "kernel" in r]
sys.exit(heads != [(1, "work", "<memory>"), (2, "work", "<memory 2>")] or
         any("module" not in r and "thread" not in r and "warp" not in r for r in recs))' &&
    ok || bad "jsonl: $("$ws" trace --read two.wst --format jsonl | grep kernel)"
"$ws" trace --read two.wst --format perfetto --warp 0 | python3 -c '
import json, sys
e = json.load(sys.stdin)["traceEvents"]
sys.exit(sorted(v["args"]["name"] for v in e if v["ph"] == "M") != ["launch 1 work (<memory>)", "launch 2 work (<memory 2>)"])' &&
    ok || bad "perfetto names"
# --read picks launches with --kernel and --launch (it ignored them, and
# every option for tracing a program, printing the whole file)
"$ws" trace --read two.wst --launch 2 > sel.out 2>&1
[ "$(grep -c '^launch' sel.out)" = 1 ] && grep -q '^launch 2 work (<memory 2>)' sel.out && ok || bad "--read --launch 2: $(grep '^launch' sel.out)"
"$ws" trace --read two.wst --kernel work --format jsonl | grep -c '"kernel":"work"' | grep -qx 2 && ok || bad "--read --kernel work"
out=$("$ws" trace --read two.wst --kernel nope 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "warpscope trace: two.wst: no launch matched --kernel nope" ] && ok || bad "--read --kernel nope (rc $rc): $out"
for extra in "--tool memtrace" "-o x.wst" "--values" "-- $app"; do
  out=$("$ws" trace --read two.wst $extra 2>&1); rc=$?
  [ $rc = 2 ] && [[ "$out" == *"--read shows a trace file, it runs no program: "*" is for tracing one"* ]] && [ ! -e x.wst ] &&
      ok || bad "--read with $extra (rc $rc): $(head -c 200 <<< "$out")"
done
# one name for both modules: launch 1's lines are work_a_kernel.c's
"$ws" trace --tool bbcount -- "$app" named "$a" "$b" > named.out 2>&1
sed -n '/^launch 1:/,/^launch 2:/p' named.out | grep -q 'work_a_kernel.c:7' &&
    ! sed -n '/^launch 1:/,/^launch 2:/p' named.out | grep -q 'work_b_kernel' &&
    sed -n '/^launch 2:/,$p' named.out | grep -q 'work_b_kernel.c:9' && ok || bad "one name, two modules: $(cat named.out)"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
