# A machine's halt is told by the machine that halted, also when another
# machine that only counts fires before the halt is taken: each warp's
# retire (machine 0 halts) is followed by its block's (machine 1 counts).
# Until 2026-11-28 the stop named whichever machine fired last: gdb's
# stop and `monitor watch` said "debug machine 1 fired on wd.retire ...
# 'wd.retire do count; rearm'", and the launch that ended with no warp
# left to halt gave the program the same wrong machine. (Since
# 2026-11-28 the halt stops each warp at its exit, the last one too,
# before its block retires: the block's count is seen at the next stop.)
# The same in timing mode (the warps retire in the same order).
# mode: basic
# env: GDB_APP_CONFIG=mode=timing
set breakpoint pending on
break scale
continue
delete
monitor watch sched.warp_retire do halt; rearm
monitor watch wd.retire do count; rearm
continue
continue
monitor watch
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: debug machine 0 fired on sched.warp_retire \(core 0, data 0x00000000\) at time [0-9]+ \(its program: 'sched.warp_retire do halt; rearm'\)
# expect-gdb: ^debug machine 0 fired on sched.warp_retire \(core 1, data 0x00000000\) at time [0-9]+ \(its program: 'sched.warp_retire do halt; rearm'\)
# expect-gdb: ^  machine 1, the debugger's: 'wd.retire do count; rearm'
# expect-gdb: ^    armed, waiting on step 1 of 1, fired 1 time, count 1
# reject-gdb: fired on wd.retire
# expect-app: result ok
# reject-app: fired on wd.retire
# expect-exit: 0
