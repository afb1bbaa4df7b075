#!/usr/bin/env python3
"""trace, profile and watch whose standard output is a pipe nobody reads
(`| grep -q ...` that has found its line, `| head`): they still remove
their temporary directory from TMPDIR and are not killed by SIGPIPE. Before
2026-11-27 each died of SIGPIPE writing its report and left
$TMPDIR/warpscope-TOOL-XXXXXX behind (events.stall_timing's
`watch ... | grep -q` did so on every run).
Usage: tool_sigpipe.py WARPSCOPE PROGRAM WORKDIR"""
import os, shutil, signal, subprocess, sys

ws, prog, work = sys.argv[1], sys.argv[2], sys.argv[3]
tmp = os.path.join(work, "tmp")
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
env = dict(os.environ, TMPDIR=tmp)
passed = failed = 0
for tool in (["trace", "--tool", "bbcount"], ["profile", "-q"], ["watch", "--format", "jsonl"], ["watch", "--stats"]):
    r, w = os.pipe()
    os.close(r)  # every write to the pipe fails: its reader is gone
    p = subprocess.run([ws] + tool + ["--", prog], stdout=w, stderr=subprocess.PIPE, env=env, timeout=120)
    os.close(w)
    left = os.listdir(tmp)
    name = " ".join(tool)
    if p.returncode == -signal.SIGPIPE:
        print(f"FAIL: {name}: killed by SIGPIPE"); failed += 1
    elif left:
        print(f"FAIL: {name}: left in TMPDIR: {' '.join(left)}"); failed += 1
    else:
        passed += 1
    shutil.rmtree(tmp)
    os.makedirs(tmp)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
