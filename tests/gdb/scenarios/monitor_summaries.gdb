# The summaries cuda-gdb users reach for (issue 17 item 11): the running
# kernel, its resident blocks and warps, and focus by coordinates (short
# form); `monitor lanes` names threads the way gdb's Target Id does.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $block_x == 1 && $thread_x == 3
continue
monitor kernels
monitor blocks
monitor warps
monitor focus block 1 thread 3
monitor lanes
delete
continue
# (block 0 may have finished by the time block 1's thread 3 stops: the
# server evaluates the condition while the other block runs on)
# expect-gdb: launch 1: kernel scale<<<\(2,1,1\),\(32,1,1\)>>> at 0x[0-9a-f]+; blocks: [01] done, [12] running or placed, 0 pending, 2 in all
# expect-gdb: [12] resident block\(s\)
# expect-gdb: block \(1,0,0\) on core 1: 32 live threads, 32 halted
# expect-gdb: [12] resident warp\(s\)
# expect-gdb: core 1 warp 0: block \(1,0,0\), 32 live lanes, lowest pc 0x[0-9a-f]+, halted: (trigger|breakpoint)
# expect-gdb: block \(1,0,0\) thread \(3,0,0\) core 1 warp 0 lane 3 is target thread [0-9]+ \(Thread [0-9]+\)
# expect-gdb: Thread [0-9]+: block \(1,0,0\) thread \(3,0,0\) core 1 warp 0 lane 3
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
