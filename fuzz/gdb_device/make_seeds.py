#!/usr/bin/env python3
"""Writes the seeds of fuzz/gdb_device/corpus: short gdb sessions (each a
byte stream from gdb, packets framed with their checksums) against the
halted gate kernel: stop reason, threads, registers, memory, breakpoints,
stepping and continuing, monitor commands."""
import os, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'corpus')
os.makedirs(out, exist_ok=True)

def pkt(body):
    return '$%s#%02x' % (body, sum(body.encode()) & 0xff)

def mon(cmd):
    return pkt('qRcmd,' + cmd.encode().hex())

HELLO = [pkt('qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;vContSupported+'), '+', pkt('QStartNoAckMode'), '+',
         pkt('?'), pkt('qfThreadInfo'), pkt('qsThreadInfo'), pkt('qXfer:libraries:read::0,1000')]
seeds = {
    'regs_memory': HELLO + [pkt('Hg2'), pkt('g'), pkt('p20'), pkt('P5=78563412'), pkt('m0,4'),
                            pkt('m10000000,40'), pkt('M10000000,4:01020304'), pkt('X10000004,0:')],
    'breakpoints': HELLO + [pkt('Z0,10000a0,2'), pkt('Z1,10000a4,4'), pkt('Z2,10000080,4'), pkt('vCont?'),
                            pkt('vCont;c'), pkt('z0,10000a0,2'), pkt('z1,10000a4,4'), pkt('z2,10000080,4')],
    'step_continue': HELLO + [pkt('Hc3'), pkt('vCont;s:3'), pkt('?'), pkt('vCont;r10000000,10000100:3'),
                              pkt('c'), '\x03', pkt('qC'), pkt('T3'), pkt('qThreadExtraInfo,3')],
    'monitor': HELLO + [mon('help'), mon('lanes'), mon('warps'), mon('breakpoints'), mon('kernels'), mon('fault'),
                        mon('modules'), mon('watch'), pkt('qXfer:features:read:target.xml:0,200')],
    'detach': HELLO + [pkt('QNonStop:1'), pkt('vCont;t:2'), pkt('vStopped'), pkt('D')],
}
for name, parts in seeds.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(''.join(parts).encode('latin-1'))
