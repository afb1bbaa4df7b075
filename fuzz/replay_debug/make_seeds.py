#!/usr/bin/env python3
"""Writes the seeds of fuzz/replay_debug/corpus: short gdb sessions (each a
byte stream from gdb, packets framed with their checksums) against the
frame debugger on fuzz/replay_capture/corpus/seed_a_frame, whose module
is at 0x01220000 and whose buffer is at 0x01200000: stepping forwards and
backwards, breakpoints with conditions, registers and memory of the
shadow copy, watchpoints forwards and backwards (and refused ones),
libraries and files, monitor commands."""
import os, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'corpus')
os.makedirs(out, exist_ok=True)

def pkt(body):
    return '$%s#%02x' % (body, sum(body.encode('latin-1')) & 0xff)

def mon(cmd):
    return pkt('qRcmd,' + cmd.encode().hex())

HELLO = [pkt('qSupported:multiprocess+;swbreak+;hwbreak+;vContSupported+'), '+', pkt('QStartNoAckMode'), '+',
         pkt('?'), pkt('qXfer:libraries:read::0,1000')]
seeds = {
    'step_regs_memory': HELLO + [pkt('vCont;s'), pkt('vCont;s:2'), pkt('qfThreadInfo'), pkt('Hg2'), pkt('g'),
                                 pkt('p20'), pkt('p4a'), pkt('m1200000,40'), pkt('m1220000,20'),
                                 pkt('mc0000000,10'), pkt('P5=01000000'), pkt('X1200000,1:\x01')],
    'break_reverse': HELLO + [pkt('Z0,1220008,2'), pkt('Z1,1220010,4;X2,2227'), pkt('vCont;c'),
                              pkt('qXfer:threads:read::0,400'), pkt('bs'), pkt('bc'), pkt('c'), pkt('s'),
                              pkt('z0,1220008,2'), pkt('vCont;r1220000,1220020:2'), pkt('Z2,1200000,4')],
    'monitor': HELLO + [pkt('vCont;s'), mon('position'), mon('help'), mon('debug-pixel 3 4'),
                        mon('debug-pixel 1 1 0'), mon('debug-pixel off'), mon('focus block 0 thread 0'),
                        mon('thread block 0 0 0 thread 0 0 0'), mon('nosuch')],
    'watch_reverse': HELLO + [pkt('Z2,1200000,4'), pkt('Z3,1200001,3'), pkt('Z4,d0000000,8'), pkt('vCont;c'),
                              pkt('z2,1200000,4'), pkt('vCont;s:2'), pkt('Z2,1200000,4'), pkt('bc'), pkt('bs'),
                              pkt('vCont;c'), pkt('Z2,1200000,0'), pkt('Z2,fffffffc,8'),
                              pkt('Z2,c0000000,4')] + [pkt('Z2,%x,4' % (0x1200000 + 4 * i)) for i in range(17)] +
                             [pkt('bc'), pkt('z3,1200001,3'), pkt('z4,d0000000,8'), pkt('vCont;c')],
    'files_detach': HELLO + [pkt('vFile:setfs:0'),
                             pkt('vFile:open:' + '/warpscope-module/1/seed_g'.encode().hex() + ',0,0'),
                             pkt('vFile:pread:0,100,0'), pkt('vFile:fstat:0'), pkt('vFile:close:0'),
                             pkt('qC'), pkt('qThreadExtraInfo,1'), pkt('QNonStop:1'), pkt('k')],
}
for name, parts in seeds.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(''.join(parts).encode('latin-1'))
