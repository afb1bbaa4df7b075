# A debug machine's halt on a warp's retire stops gdb on that warp's
# thread, at the exit stub, before its lanes leave; on the launch's last
# running warp too (until 2026-11-28 the halt was taken after the lanes
# had retired: the launch's last warp left nothing to halt, the launch
# ended with WS_ERR_STOPPED, "none was left to halt", and gdb heard no
# stop, only the program's end). Block 1 waits at a breakpoint while
# block 0 runs out; then block 1, the last warp, is stopped as it leaves.
# mode: basic
set breakpoint pending on
break scale if $block_x == 1
continue
delete
monitor watch sched.warp_retire do halt; rearm
continue
bt
monitor warps
continue
print $block_x
bt 1
monitor warps
monitor watch
continue
# expect-gdb: debug machine 0 fired on sched.warp_retire \(core 0, data 0x00000000\)
# expect-gdb: debug machine 0 fired on sched.warp_retire \(core 1, data 0x00000000\)
# expect-gdb: Thread [0-9]+ "block \(0,0,0\) thread \(0,0,0\) core 0 warp 0 lane 0( \(focus; 32 live lanes\))?" received signal SIGTRAP
# expect-gdb: Thread [0-9]+ "block \(1,0,0\) thread \(0,0,0\) core 1 warp 0 lane 0( \(focus; 32 live lanes\))?" received signal SIGTRAP
# expect-gdb: ^#0  0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: ^\$1 = 1$
# expect-gdb: core 1 warp 0: block \(1,0,0\), 32 live lanes, lowest pc 0xffff0000, halted: debug machine
# expect-gdb: fired 2 times
# expect-gdb: exited normally
# reject-gdb: none was left to halt
# expect-app: result ok
# reject-app: WS_ERR_STOPPED
# expect-exit: 0
