#!/usr/bin/env python3
"""The profiler's exact per-line metrics (instruction counters) on kernels
whose costs are worked out by hand (tests/timing/pcc_kernels.c), run with
`warpscope profile -- warpscope run ...`:
  conflict, 4 blocks x 64 threads: lane t reads and writes s[32 t], all in
    bank 0, so each of the 8 warp requests per line takes 32 wavefronts;
  diverge, 2 blocks x 64 threads, n = 100: only lanes t % 8 == 0 (4 of a
    warp's 32) run the loop: SIMT efficiency 4/32 = 12.5 % on its line;
  strided, 4 blocks x 64 threads: lane i loads in[32 i], one 32-byte sector
    per lane, 32 sectors per request; the store is contiguous: 4.
The text report shows the same figures.
Also the memory-latency rule on examples/gather (GATHER, run from its folder).
usage: check_exact.py WARPSCOPE PCC_KERNELS.elf PCC_KERNELS.c WORKDIR GATHER"""
import json
import os
import re
import shutil
import subprocess
import sys

ws, elf, src, work, gather = sys.argv[1:6]
lines = {}
for no, text in enumerate(open(src), 1):
    m = re.search(r"LINE:(\w+)", text)
    if m:
        lines[m.group(1)] = no
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


limits = {}
rules = {}


def profile(kernel, grid, block, *args, source=None, shared=0):
    js = os.path.join(work, f"exact_{kernel}.json")
    opts = ["--source", source] if source else []
    out = subprocess.run([ws, "profile", "--json", js, *opts, "--", ws, "run", "--grid", str(grid), "--block",
                          str(block), "--shared", str(shared), elf, kernel, *args],
                         capture_output=True, text=True, check=True).stdout
    doc = json.load(open(js))
    limits[kernel] = doc["devices"][0]["launches"][0]["limits"]
    # one (rule, line, metric) per line a rule names (a cause on several lines is one rule)
    rules[kernel] = [(r["rule"], x["line"], x["metric"]) for d in doc["devices"] for k in d["kernels"]
                     if k["kernel"] == kernel for r in k["rules"] for x in r["lines"]]
    ks = [k for d in doc["devices"] for k in d["kernels"] if k["kernel"] == kernel]
    check(len(ks) == 1, f"{kernel}: one kernel in the JSON")
    return {l["line"]: l["exact"] for l in ks[0]["lines"] if l["file"] and l["file"].endswith("pcc_kernels.c")}, out


ex, report = profile("conflict", 4, 64, "zeros:256", source="conflict")
for name in ("conflict_store", "conflict_load"):
    e = ex.get(lines[name], {})
    check(e.get("shared_requests") == 8 and e.get("shared_wavefronts") == 256,
          f"{name}: 8 requests of 32 wavefronts, got {e}")
check("shared 8 req, 32.00 wavefronts/req (31.00 extra: bank conflicts)" in report, "conflict: the text report")
# the source view: every line of the kernel, the conflicting ones with 32 wavefronts per request
view = report[report.find("Source of kernel conflict"):]
for name in ("conflict_store", "conflict_load"):
    row = [l for l in view.splitlines() if l.strip().startswith(f"pcc_kernels.c:{lines[name]} ")]
    check(len(row) == 1 and " 32.00 " in row[0], f"source view row of {name}: {row}")
check(view.count("\n    0x") >= 5, "source view: the instructions under their lines")
_, report = profile("strided", 1, 32, "zeros:1024", "zeros:32", source="nosuchkernel")
check("Source of kernel nosuchkernel: no launch of a kernel by that name on this device (kernels: strided)" in report,
      "source view of an unknown kernel")

ex, report = profile("diverge", 2, 64, "zeros:128", "100")
check("occupancy: theoretical 12.5% (2 blocks of 2 warps on 4 cores, at most 1 per core, limited by grid size; "
      "warp slots allow 4), achieved 12.5%" in report, "diverge: the report's grid-limited occupancy")
e = ex.get(lines["diverge_loop"], {})
check(e.get("warp_instructions", 0) > 0 and e["thread_instructions"] == 4 * e["warp_instructions"],
      f"diverge_loop: 4 of 32 lanes, got {e}")
check(re.search(r"exact: \d+ warp-instr, SIMT 12\.5%", report) is not None, "diverge: SIMT 12.5% in the report")

ex, report = profile("strided", 4, 64, "zeros:8192", "zeros:256", source="strided")
view = report[report.find("Source of kernel strided"):]
check(re.search(r"\n    0x[0-9a-f]+ .* 32\.00 +flw ", view) is not None and
      re.search(r"\n    0x[0-9a-f]+ .* 4\.00 +fsw ", view) is not None, "strided: the source view splits load and store")
check("pcc_kernels.c:%d: uncoalesced: 18.0 sectors per request" % lines["strided"] in report, "strided: the rule text")
e = ex.get(lines["strided"], {})
# one line holds the load (8 x 32 sectors) and the store (8 x 4)
check(e.get("global_requests") == 16 and e.get("global_sectors") == 8 * 32 + 8 * 4,
      f"strided: 16 requests, 288 sectors, got {e}")
# The fixes: the rule no longer fires and the metric is ideal.
ex, report = profile("conflict_padded", 4, 64, "zeros:256")
for name in ("padded_store", "padded_load"):
    e = ex.get(lines[name], {})
    check(e.get("shared_requests") == 8 and e.get("shared_wavefronts") == 8, f"{name}: one wavefront per request: {e}")
# without conflicts the text says so by what it leaves out: no "(0.00 extra: bank conflicts)"
check("shared 8 req, 1.00 wavefronts/req" in report and "extra:" not in report,
      "conflict_padded: no extra-wavefront parenthesis without extra wavefronts: "
      + "; ".join(l.strip() for l in report.splitlines() if "wavefronts/req" in l))
# (its two lines wait for the thread id and the shared load's result:
# mio_latency may name them, a bank-conflict rule must not)
check(not [r for r in rules["conflict_padded"] if r[0] in ("bank_conflicts", "shared_atomics")],
      f"conflict_padded: no bank-conflict rule fires: {rules['conflict_padded']}")
ex, _ = profile("diverge_packed", 2, 64, "zeros:128", "100")
e = ex.get(lines["packed_loop"], {})
check(e.get("warp_instructions", 0) > 0 and e["thread_instructions"] == 8 * e["warp_instructions"],
      f"packed_loop: 8 lanes per warp-instruction (a quarter of the warp-instructions): {e}")
check(all(r[0] != "divergence" or r[1] != lines["packed_loop"] or r[2] >= 0.25 for r in rules["diverge_packed"]),
      f"diverge_packed rules: {rules['diverge_packed']}")
ex, _ = profile("contiguous", 4, 64, "zeros:256", "zeros:256")
e = ex.get(lines["contiguous"], {})
check(e.get("global_requests") == 16 and e.get("global_sectors") == 16 * 4, f"contiguous: 4 sectors per request: {e}")
check(not [r for r in rules["contiguous"] if r[0] == "uncoalesced"], f"contiguous: no uncoalesced rule")

# The rules name the line and the metric.
check(("bank_conflicts", lines["conflict_store"], 32.0) in rules["conflict"] and
      ("bank_conflicts", lines["conflict_load"], 32.0) in rules["conflict"], f"conflict rules: {rules['conflict']}")
check(("divergence", lines["diverge_loop"], 0.125) in rules["diverge"], f"diverge rules: {rules['diverge']}")
check(any(r[0] == "uncoalesced" and r[1] == lines["strided"] and r[2] == 18.0 for r in rules["strided"]),
      f"strided rules: {rules['strided']}")
check(all(r[0] != "divergence" for r in rules["conflict"] + rules["strided"]), "no divergence rule where lanes agree")


out = subprocess.run([ws, "profile", "--", "./gather"], cwd=os.path.dirname(gather), capture_output=True, text=True,
                     check=True).stdout
check("gather_kernel.c:13: memory latency: 98.6% of its warp-cycles wait for a global load's result" in out,
      "gather: the latency rule on line 13")

# Sampled against exact: each state's share of the samples lies within the
# sampling error of its exact share of warp-cycles (docs/profiling.md: three
# standard errors plus half a point, for the aliasing of periodic sampling
# with periodic code; the standard error is the larger of the binomial one
# at the exact share and the JSON's "state_errors", which takes the
# sampling point, not the record, as the unit).
gjson = os.path.join(work, "gather.json")
subprocess.run([ws, "profile", "-q", "--period", "6", "--json", gjson, "--", "./gather"], cwd=os.path.dirname(gather),
               check=True, capture_output=True)
doc = json.load(open(gjson))["devices"][0]
for launch in doc["launches"]:
    exact = launch["counters"]["state_cycles"]
    kern = [k for k in doc["kernels"] if k["kernel"] == launch["kernel"]][0]
    n = sum(kern["states"].values())
    total = sum(exact.values())
    worst = 0.0
    for st in set(exact) | set(kern["states"]):
        p_exact = exact.get(st, 0) / total
        p_sampled = kern["states"].get(st, 0) / n
        se = max((p_exact * (1 - p_exact) / n) ** 0.5, kern["state_errors"].get(st, 0))
        bound = 3 * se + 0.005
        worst = max(worst, abs(p_sampled - p_exact) / bound)
        check(abs(p_sampled - p_exact) <= bound,
              f"{launch['kernel']} {st}: sampled {p_sampled:.4f} vs exact {p_exact:.4f} (bound {bound:.4f}, {n} samples)")
    print(f"{launch['kernel']}: {n} samples; the largest state difference is {worst:.2f} of its bound")

# Occupancy and its limiter (default device: 4 cores x 8 warp slots, 64 KiB
# shared memory per core). diverge: 2 blocks of 2 warps on 4 cores: the grid
# gives each core at most 1 block, and two cores none: 4 of the device's 32
# warp slots, 12.5 % (achieved occupancy counts every core's slots; the
# busiest core's 2/8 = 25 % was said until 2026-11-27, twice what the launch
# could reach).
lim = limits["diverge"]
check(lim["limiter"] == "grid size" and lim["blocks_per_core"] == 1 and abs(lim["theoretical_occupancy"] - 0.125) < 1e-9,
      f"diverge: grid-size limited, 12.5 %: {lim}")
check(lim["achieved_occupancy"] <= lim["theoretical_occupancy"] + 1e-9 and lim["achieved_occupancy"] > 0.12,
      f"diverge: achieved within theoretical: {lim}")
# conflict with 40000 bytes of dynamic shared memory (+ 8192 static) per
# block: one block fits per core (warp slots would allow 4): 2/8 = 25 %.
profile("conflict", 8, 64, "zeros:512", shared=40000)
lim = limits["conflict"]
check(lim["limiter"] == "shared memory" and lim["blocks_allowed_by_shared_memory"] == 1 and
      lim["blocks_allowed_by_warp_slots"] == 4 and abs(lim["theoretical_occupancy"] - 0.25) < 1e-9,
      f"conflict: shared-memory limited, 25 %: {lim}")
# strided, 16 blocks of 8 warps: warp slots allow 1 block per core: 100 %.
profile("strided", 16, 256, "zeros:131072", "zeros:4096")
lim = limits["strided"]
check(lim["limiter"] == "warp slots" and lim["blocks_per_core"] == 1 and lim["theoretical_occupancy"] == 1.0 and
      lim["core_imbalance"] == 1.0, f"strided: warp-slot limited, 100 %, balanced: {lim}")
# Roofline: 4 cores / sector_cycles 1 = 4 sectors/cycle, 4 cores x 2
# schedulers / 4 = ridge 2; sector_cycles = 0 (no bandwidth limit) has no
# sector peak and no ridge, and nothing is memory-bound.
check(lim["peak_sectors_per_cycle"] == 4.0 and lim["ridge"] == 2.0, f"strided: roofline peak and ridge: {lim}")
nolimit = os.path.join(work, "sector0.txt")
open(nolimit, "w").write("sector_cycles = 0\n")
js = os.path.join(work, "sector0.json")
# (timing= relative to the work directory: --config's settings are separated
# by spaces, and the build tree's path may hold one)
out = subprocess.run([ws, "profile", "--json", js, "--", ws, "run", "--config", "timing=sector0.txt", "--grid", "16",
                      "--block", "256", elf, "strided", "zeros:131072", "zeros:4096"],
                     capture_output=True, text=True, check=True, cwd=work).stdout
lim = json.load(open(js))["devices"][0]["launches"][0]["limits"]
roof = [l for l in out.split("\n") if "roofline:" in l]
check(lim["peak_sectors_per_cycle"] is None and lim["ridge"] is None and lim["bound"] != "memory" and
      len(roof) == 1 and "no ridge (sector_cycles = 0" in roof[0] and "sectors/cycle (no peak)" in roof[0],
      f"sector_cycles = 0: no sector peak: {lim} {roof}")
# Comparing two runs: twice the blocks, twice the warp-instructions on every line.
base = os.path.join(work, "baseline.json")
run = [ws, "run", "--block", "64", elf, "conflict"]
subprocess.run([ws, "profile", "-q", "--json", base, "--", *run[:2], "--grid", "4", *run[2:], "zeros:256"],
               check=True, capture_output=True)
out = subprocess.run([ws, "profile", "--baseline", base, "--", *run[:2], "--grid", "8", *run[2:], "zeros:512"],
                     check=True, capture_output=True, text=True).stdout
cmp_part = out[out.find("Compared with"):]
check("kernel conflict: cycles" in cmp_part and "warp-instructions 136 -> 272 (+100.0%)" in cmp_part,
      f"baseline: kernel totals: {cmp_part[:300]}")
check(f"line pcc_kernels.c:{lines['conflict_store']}: warp-cycles" in cmp_part and
      "wavefronts/request 32.00 -> 32.00" in cmp_part, "baseline: the conflicting line, unchanged wavefronts")
# --json naming the baseline: the baseline is read before the run replaces
# it, so the comparison is the same, and -q leaves out only the report.
same = os.path.join(work, "same.json")
shutil.copy(base, same)
out = subprocess.run([ws, "profile", "-q", "--json", same, "--baseline", same, "--", *run[:2], "--grid", "8", *run[2:],
                      "zeros:512"], check=True, capture_output=True, text=True).stdout
check("warp-instructions 136 -> 272 (+100.0%)" in out and "Hot source lines" not in out,
      f"baseline: --json naming the baseline, -q: {out[out.find('Compared with'):][:300]}")
check(json.load(open(same))["devices"][0]["launches"][0]["counters"]["warp_instructions"] == 272, "baseline: --json replaced it")
# Outputs that would overwrite each other are refused before the run.
for a, b in (("--json", "--trace"), ("--report", "--json"), ("--trace", "--baseline")):
    bad = subprocess.run([ws, "profile", a, base, b, os.path.join(work, ".", "baseline.json"), "--", "false"],
                         capture_output=True, text=True)
    check(bad.returncode == 2 and "name the same file" in bad.stderr, f"{a} and {b} on one file: {bad.stderr}")
check(json.load(open(base))["devices"][0]["launches"][0]["counters"]["warp_instructions"] == 136, "refused: baseline untouched")
bad = subprocess.run([ws, "profile", "--baseline", os.path.join(work, "nonexistent.json"), "--", "true"],
                     capture_output=True, text=True)
# (with the reason: until 2026-11-28 only "cannot read it")
check(bad.returncode == 2 and "nonexistent.json: cannot read it: No such file or directory" in bad.stderr,
      f"baseline: unreadable file: {bad.stderr}")
bad = subprocess.run([ws, "profile", "--baseline"], capture_output=True, text=True)
check(bad.returncode == 2 and "--baseline needs a file" in bad.stderr, f"baseline: no file: {bad.stderr}")
notjson = os.path.join(work, "notaprofile.json")
open(notjson, "w").write("{\"format\": \"other\"}")
# A baseline that is not a profile fails before the run (which would print
# the kernel's results), with -q too.
broken = os.path.join(work, "broken.json")
open(broken, "w").write("[1,2")
for b, why in ((notjson, "not a warpscope profile"), (broken, "broken.json:1: "), (work, "a directory, not a profile")):
    bad = subprocess.run([ws, "profile", "-q", "--baseline", b, "--", *run[:2], "--grid", "1", *run[2:], "zeros:64"],
                         capture_output=True, text=True)
    check(bad.returncode == 2 and why in bad.stderr and not bad.stdout, f"baseline {b}: {bad.returncode} {bad.stderr}")
# Blocks of 8 threads: every line runs on 8 of a warp's 32 lanes without any
# branch. The rule must say so (block size), not blame a branch; a branch
# that leaves lane 0 of each block (1 of 32) is still divergence.
ex, report = profile("contiguous", 4, 8, "zeros:32", "zeros:32")
check(("partial_warps", lines["contiguous"], 0.25) in rules["contiguous"] and
      not [r for r in rules["contiguous"] if r[0] == "divergence"], f"contiguous, blocks of 8: {rules['contiguous']}")
check("no branch splits the warps: blocks of 8 threads fill only 25.0% of their warps' lanes; make the block size "
      "a multiple of 32 threads" in report and "branch around it" not in report, "contiguous, blocks of 8: the text")
ex, report = profile("diverge", 2, 8, "zeros:16", "100")
check(("divergence", lines["diverge_loop"], 1 / 32) in rules["diverge"], f"diverge, blocks of 8: {rules['diverge']}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
