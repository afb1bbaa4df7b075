#!/usr/bin/env python3
"""warpscope debug killed by SIGTERM at any moment, even as it starts: the
command ends, its program ends with it (no gdb server left waiting for a
connection forever) and no temporary port file is left in TMPDIR.

Before 2026-11-27 a signal between warpscope debug's fork and its handler
ended the command alone: about 3 runs in 100 of this loop left the program
behind, serving gdb, and its port file in TMPDIR.

Usage: debug_sigterm.py WARPSCOPE cli_kernels.elf WORKDIR [RUNS]"""
import os, shutil, signal, subprocess, sys, time

ws, elf, work = sys.argv[1], sys.argv[2], sys.argv[3]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 150
tmp = os.path.join(work, "tmp")
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
env = dict(os.environ, TMPDIR=tmp)
hung = orphans = 0
for i in range(runs):
    # each run in its own process group, so that whatever it leaves can be found and ended
    p = subprocess.Popen([ws, "debug", "--", ws, "run", elf, "kinds", "iota:8", "1", "1", "2", "3", "4", "5"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    time.sleep(0.0002 * (i % 10))  # at different moments of the start
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        hung += 1
    try:  # anything still in the group outlived the command
        os.killpg(p.pid, signal.SIGKILL)
        if p.returncode is not None:
            orphans += 1
    except ProcessLookupError:
        pass
    p.wait()
left = sorted(os.listdir(tmp))
fail = 0
if hung:
    print(f"FAIL: {hung} of {runs} commands did not end on SIGTERM"); fail += 1
if orphans:
    print(f"FAIL: {orphans} of {runs} commands ended and left their program running"); fail += 1
if left:
    print(f"FAIL: {len(left)} temporary files left in TMPDIR: {' '.join(left[:5])}"); fail += 1
print(f"{runs} runs killed at start: {3 - fail} passed, {fail} failed")
sys.exit(1 if fail else 0)
