#!/bin/bash
# Two modules loaded from memory without a name, each with a kernel `work`:
# the profiler's report keeps them apart (before 2026-11-27 both were
# "<memory>" and it showed one kernel 'work (<memory>)' of 2 launches).
# usage: check_unnamed_modules.sh WARPSCOPE TEST_UNNAMED_MODULES A.elf B.elf WORKDIR
set -u
ws=$1 app=$2 a=$3 b=$4 dir=$5/unnamed_modules
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
"$ws" profile -q --json p.json -- "$app" "$a" "$b" launch > json.txt 2>&1 || bad "profile exited with $?"
"$ws" profile -- "$app" "$a" "$b" launch > rep.txt 2>&1 || bad "profile exited with $?"
grep -q "2 launches, 2 kernels" rep.txt && ok "two kernels in the report" || bad "kernels merged: $(grep -m1 launches rep.txt)"
for m in "<memory>" "<memory 2>"; do
    grep -qE "^ +[0-9]+ +[0-9.]+% +[0-9]+ +1  work \($m\)$" rep.txt && ok "work ($m): one launch" ||
        bad "no line for work ($m) with one launch"
done
python3 - p.json <<'PY' && ok "JSON names both modules" || bad "JSON does not keep the modules apart"
import json, sys
d = json.load(open(sys.argv[1]))
mods = set()
def walk(x):
    if isinstance(x, dict):
        if "module" in x and isinstance(x["module"], str): mods.add(x["module"])
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
walk(d)
sys.exit(0 if {"<memory>", "<memory 2>"} <= mods else 1)
PY
exit $fail
