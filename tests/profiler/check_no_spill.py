#!/usr/bin/env python3
"""The profiler's test kernels must not spill to the lanes' stacks in their
loops: a spill adds local-memory loads and stores (long_scoreboard,
lg_throttle) to the loop, and a test that checks a bank-conflict,
bandwidth or latency share would then check the spill's share instead
(examples/matmul once blamed local memory for 93 % of its stalls).

usage: check_no_spill.py WARPSCOPE PROBE.elf --modules MODULE.elf... --sources FILE.c...

A spill: an sp-relative load or store inside a loop (between a backward
branch and its target) of a function with lines in one of the SOURCES
(the modules' own, not picolibc's), to a
stack slot that is not one the prologue saves a register in (the
epilogue's restores may sit inside a loop's range when the compiler moved
the loop below the return). PROBE is a kernel that spills: the check must
find its spills, or it checks nothing. (A local array, as the
local-memory rule's kernel has, is addressed through a register, not
sp-relative: it is not a spill.)"""
import re
import subprocess
import sys

LOADS_STORES = re.compile(r'^(lw|sw|lh|lhu|lb|lbu|sh|sb|flw|fsw|c\.lwsp|c\.swsp)$')


def functions(ws, elf, sources):
    """{name: [(addr, op, args)]} for functions with lines in one of the sources (base names)."""
    out = subprocess.run([ws, 'disasm', elf], capture_output=True, text=True, check=True).stdout
    funcs, own, cur = {}, set(), None
    for line in out.splitlines():
        m = re.match(r'^[0-9a-f]+ <([^>]+)>:$', line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        m = re.match(r'^\s+; ([^:]+\.c):\d+', line)
        if m and cur and m.group(1) in sources:
            own.add(cur)
        m = re.match(r'^\s*([0-9a-f]+):\s+[0-9a-f]+\s+(\S+)\s*(.*)$', line)
        if m and cur:
            funcs[cur].append((int(m.group(1), 16), m.group(2), m.group(3)))
    return {f: ins for f, ins in funcs.items() if f in own}


def probe_source(probe):
    """spill_probe.elf is built from spill_probe.c."""
    return probe.split('/')[-1].rsplit('.', 1)[0] + '.c'


def sp_slot(op, args):
    m = re.search(r'(-?\d+)\(sp\)$', args)
    return int(m.group(1)) if m and LOADS_STORES.match(op) else None


def spills(ins):
    # the prologue: the saves before the first branch or jump
    saved = set()
    for _, op, args in ins:
        if op.startswith('b') or op.startswith('j') or op in ('c.j', 'ret'):
            break
        if op in ('sw', 'fsw', 'c.swsp') and sp_slot(op, args) is not None:
            saved.add(sp_slot(op, args))
    loops = []
    for a, op, args in ins:
        m = re.search(r'0x([0-9a-f]+)$', args)
        if (op.startswith('b') or op in ('j', 'c.j')) and m and int(m.group(1), 16) <= a:
            loops.append((int(m.group(1), 16), a))
    return [(a, op, args) for a, op, args in ins
            if sp_slot(op, args) is not None and sp_slot(op, args) not in saved
            and any(lo <= a <= hi for lo, hi in loops)]


def option(args, name):
    """The values after --name, up to the next option."""
    if name not in args:
        return []
    rest = args[args.index(name) + 1:]
    return rest[:next((i for i, a in enumerate(rest) if a.startswith('--')), len(rest))]


def main():
    args = sys.argv[1:]
    ws, probe = args[0], args[1]
    modules = option(args, '--modules')
    sources = {s.split('/')[-1] for s in option(args, '--sources')} | {probe_source(probe)}
    fail = 0
    found = {f: s for f, ins in functions(ws, probe, sources).items() if (s := spills(ins))}
    if found:
        print('ok: the probe spills where expected: %s' % ', '.join('%s (%d)' % (f, len(s)) for f, s in found.items()))
    else:
        print('FAIL: no spill found in the probe %s: the check sees nothing' % probe)
        fail = 1
    for elf in modules:
        funcs = functions(ws, elf, sources)
        if not funcs:
            print('FAIL: %s: no function with lines of its own sources' % elf)
            fail = 1
        spilling = 0
        for f, ins in sorted(funcs.items()):
            s = spills(ins)
            if s:
                print('FAIL: %s: %s spills in a loop: %s' % (elf, f, '; '.join('%x %s %s' % x for x in s[:4])))
                spilling = fail = 1
        if funcs and not spilling:
            print('ok: %s: %d functions, no spill in a loop' % (elf.split('/')[-1], len(funcs)))
    return fail


sys.exit(main())
