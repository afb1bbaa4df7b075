# A barrier deadlock stops gdb where the lanes wait, as a fault does, with
# no debug machine asked for: the device's deadlock report on gdb's
# console, every warp halted ("deadlock" in monitor warps), registers and
# the source line readable; the next continue ends the launch with
# WS_ERR_DEADLOCK. (Before, the launch just failed and gdb saw the
# program exit.)
# mode: deadlock
continue
monitor warps
bt 1
print t
continue
# expect-gdb: device deadlock: no lane can make progress in 1 resident blocks
# expect-gdb: 32 lanes at barrier 0, 32 lanes at barrier 1
# expect-gdb: gdb_kernels.c:@MARK_split_first@ in split_barrier
# expect-gdb: received signal SIGTRAP
# expect-gdb: core 0 warp 0: block \(0,0,0\), 32 live lanes, lowest pc 0x[0-9a-f]*, halted: deadlock
# expect-gdb: core 0 warp 1: block \(0,0,0\), 32 live lanes, lowest pc 0x[0-9a-f]*, halted: deadlock
# expect-gdb: #0  0x[0-9a-f]+ in split_barrier \(out=
# expect-gdb: \$1 = 0
# expect-gdb: exited normally
# expect-app: deadlock launch: WS_ERR_DEADLOCK
# expect-exit: 0
