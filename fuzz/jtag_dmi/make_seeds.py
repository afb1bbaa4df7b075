#!/usr/bin/env python3
"""Writes the seeds of fuzz/jtag_dmi/corpus (see fuzz_jtag_dmi.c for the
input format): debug-module accesses a probe makes, and one remote_bitbang
stream that selects the DMI register and reads dmstatus."""
import os, struct, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'corpus')
os.makedirs(out, exist_ok=True)

def acc(write, dm, addr, value=0):
    return bytes([(dm << 1) | (1 if write else 0), addr]) + struct.pack('<I', value & 0xffffffff)

ACTIVE = 1
seeds = {
    'dm_status': bytes([0]) + acc(1, 0, 0x10, ACTIVE) + acc(0, 0, 0x11) + acc(0, 0, 0x12) + acc(0, 0, 0x40),
    'dm_halt_resume': bytes([1]) + acc(1, 0, 0x10, ACTIVE) + acc(1, 1, 0x10, ACTIVE | 1 << 31)
        + acc(0, 1, 0x11) + acc(1, 1, 0x10, ACTIVE | 1 << 30) + acc(0, 2, 0x40) + acc(0, 3, 0x11),
    'dm_abstract_reg': bytes([0]) + acc(1, 0, 0x10, ACTIVE) + acc(1, 0, 0x04, 0x1234)
        + acc(1, 0, 0x17, 2 << 20 | 1 << 17 | 1 << 16 | 0x1005) + acc(0, 0, 0x16)
        + acc(1, 0, 0x16, 7 << 8) + acc(1, 0, 0x18, 1) + acc(1, 0, 0x04, 5),
    'dm_progbuf': bytes([2]) + acc(1, 0, 0x10, ACTIVE) + acc(1, 0, 0x20, 0x0000100f)
        + acc(1, 0, 0x21, 0x00100073) + acc(1, 0, 0x17, 1 << 18) + acc(0, 0, 0x16),
    'dm_sysbus': bytes([0]) + acc(1, 0, 0x10, ACTIVE) + acc(1, 0, 0x38, 2 << 17 | 1 << 16 | 1 << 20)
        + acc(1, 0, 0x39, 0x10000000) + acc(0, 0, 0x3c) + acc(1, 0, 0x3c, 0xdeadbeef)
        + acc(1, 0, 0x39, 0xfffffffc) + acc(0, 0, 0x3c) + acc(0, 0, 0x38),
    'dm_machines': bytes([1]) + acc(1, 0, 0x10, ACTIVE) + acc(1, 0, 0x71, 0) + acc(1, 0, 0x72, 0x01020304)
        + acc(1, 0, 0x72, 0xffffffff) + acc(1, 0, 0x73, 1) + acc(0, 0, 0x73) + acc(1, 0, 0x70, 1) + acc(0, 0, 0x70),
}

# beside a launch whose hart 0 was halted (byte 0 bit 3): registers through
# abstract commands, the program buffer, memory through the system bus
ARREG = lambda regno, write=0: 2 << 20 | 1 << 17 | write << 16 | regno
seeds['halted_regs'] = bytes([8]) + acc(0, 0, 0x11) + acc(1, 0, 0x17, ARREG(0x100a)) + acc(0, 0, 0x04) \
    + acc(0, 0, 0x16) + acc(1, 0, 0x17, ARREG(0x7b1)) + acc(0, 0, 0x04) + acc(1, 0, 0x04, 0x10000) \
    + acc(1, 0, 0x17, ARREG(0x100b, 1)) + acc(1, 0, 0x17, ARREG(0x1020)) + acc(0, 0, 0x16) \
    + acc(1, 0, 0x10, 1 << 30 | 1)
seeds['halted_progbuf'] = bytes([9]) + acc(1, 0, 0x20, 0x00a50533) + acc(1, 0, 0x21, 0x00100073) \
    + acc(1, 0, 0x17, 1 << 18) + acc(0, 0, 0x16) + acc(1, 0, 0x38, 2 << 17 | 1 << 20) \
    + acc(1, 0, 0x39, 0x10000000) + acc(0, 0, 0x3c) + acc(1, 0, 0x10, 1 << 30 | 1) + acc(0, 0, 0x11)

CMDS = "01234567012345670123R3Rrstu5B7bQ"
def bitbang(chars):
    return bytes(CMDS.index(c) for c in chars)

def clock(tms, tdi=0):  # TCK low then high with these levels
    v = tms << 1 | tdi
    return str(v) + str(4 | v)

s = ''.join(clock(1) for _ in range(6)) + clock(0)          # reset, then Run-Test/Idle
s += clock(1) + clock(1) + clock(0) + clock(0)               # Select-DR, Select-IR, Capture-IR, Shift-IR
ir = 0x11
for i in range(5):
    s += clock(1 if i == 4 else 0, ir >> i & 1)
s += clock(1) + clock(0)                                     # Update-IR, Idle
word = 0x11 << 34 | 1                                        # read dmstatus
for _ in range(2):
    s += clock(1) + clock(0) + clock(0)                      # Select-DR, Capture-DR, Shift-DR
    for i in range(41):
        s += 'R' + clock(1 if i == 40 else 0, word >> i & 1)
    s += clock(1) + ''.join(clock(0) for _ in range(3))      # Update-DR, idle cycles
seeds['bitbang_dmstatus'] = bytes([4]) + bitbang(s)

for name, data in seeds.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
