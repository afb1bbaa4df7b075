#!/usr/bin/env python3
"""The profiler's instruction mix (exact per-PC counters of the timing
model) against the tracer's (block counts of the instrumented run): two
mechanisms that share no code but the opcode table must give the same
counts, per kind and per opcode, on each example (one launch each).
   usage: check_mix.py WARPSCOPE WORKDIR EXAMPLE..."""
import json
import os
import re
import subprocess
import sys

ws, work, examples = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(work, exist_ok=True)
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


for ex in examples:
    name = os.path.basename(ex)
    pj, tr = os.path.join(work, name + ".json"), os.path.join(work, name + ".trace.txt")
    p = subprocess.run([ws, "profile", "-q", "--json", pj, "--", ex], cwd=os.path.dirname(ex), capture_output=True, text=True)
    t = subprocess.run([ws, "trace", "--tool", "bbcount", "--report", tr, "--", ex], cwd=os.path.dirname(ex),
                       capture_output=True, text=True)
    check(p.returncode == 0 and t.returncode == 0, "%s: profile %d, trace %d: %s%s" % (name, p.returncode, t.returncode,
                                                                                       p.stderr[-300:], t.stderr[-300:]))
    if p.returncode or t.returncode:
        continue
    kernels = json.load(open(pj))["devices"][0]["kernels"]
    report = open(tr).read()
    check(len(kernels) == 1 and report.count("\nlaunch ") == 1, "%s: one kernel, one launch" % name)
    mix = kernels[0]["instruction_mix"]
    total = int(re.search(r"instructions executed \(over lanes\): (\d+);", report).group(1))
    check(mix["lane_instructions"] == total == sum(mix["kinds"].values()),
          "%s: profiler %d lane instructions, tracer %d" % (name, mix["lane_instructions"], total))
    ld, st, at = (int(x) for x in re.search(r"memory instructions \(over lanes\): (\d+) loads, (\d+) stores, (\d+) atomics",
                                             report).groups())
    check((mix["kinds"]["load"], mix["kinds"]["store"], mix["kinds"]["atomic"]) == (ld, st, at),
          "%s: memory kinds %s against the tracer's %s" % (name, mix["kinds"], (ld, st, at)))
    rows = re.findall(r"^    (\S+) +(\d+) +\d+\.\d%$", report.split("opcodes by instructions executed:")[1], re.M)
    ops = {o["op"]: o["lane_instructions"] for o in mix["opcodes"]}
    check(rows and all(ops.get(op) == int(n) for op, n in rows),
          "%s: opcodes %s against the tracer's %s" % (name, mix["opcodes"][:10], rows))
    check([o["op"] for o in mix["opcodes"][:len(rows)]] == [op for op, _ in rows], "%s: the same order" % name)
    text = subprocess.run([ws, "profile", "--", ex], cwd=os.path.dirname(ex), capture_output=True, text=True).stdout
    first = rows[0]
    line = r"^  instruction mix \(exact, over lanes\): integer [0-9.]+%, .*; most run: " + re.escape(first[0]) + " "
    check(re.search(line, text, re.M) is not None, "%s: the report's mix line" % name)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
