# gdb threads that are warps (WARPSCOPE_DEBUG threads=warp): a thread per
# warp, shown through its focus lane. A warp that reaches a breakpoint is
# one stop, with the focus on the first lane whose condition holds; a
# console line names the other lanes it holds for; hit counts count warps.
# `monitor focus` moves a warp's focus to another lane (flushing gdb's
# register cache drops what it read of the old one). Results unchanged.
# mode: basic
# debug-opts: threads=warp
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $thread_x >= 4 && $thread_x < 8
continue
printf "hit %d %d\n", $block_x, $thread_x
info threads
python print("gdb threads %d" % len(gdb.selected_inferior().threads()))
monitor focus block 0 thread 9
maintenance flush register-cache
printf "focus %d %d i=%d\n", $block_x, $thread_x, i
info threads
monitor warps
monitor lanes
monitor focus block 0 thread 40
continue
printf "hit %d %d\n", $block_x, $thread_x
info breakpoints
continue
# expect-gdb: ^\[the condition holds for lane\(s\) 5-7 of this warp too: monitor focus\]$
# expect-gdb: ^hit 0 4$
# expect-gdb: Thread [0-9]+ "block \(0,0,0\) thread \(4,0,0\) core [0-9]+ warp [0-9]+ lane 4 \(focus; 32 live lanes\)" scale
# expect-gdb: ^gdb threads 2$
# expect-gdb: block \(0,0,0\) thread \(9,0,0\) core [0-9]+ warp [0-9]+ lane 9 is lane 9 of target thread [0-9]+ .*now its focus; switch with: thread find core [0-9]+ warp [0-9]+ lane
# expect-gdb: ^focus 0 9 i=9$
# expect-gdb: Thread [0-9]+ "block \(0,0,0\) thread \(9,0,0\) core [0-9]+ warp [0-9]+ lane 9 \(focus; 32 live lanes\)" scale
# expect-gdb: ^  Thread [0-9]+: core [0-9]+ warp [0-9]+: block \(0,0,0\), 32 live lanes
# expect-gdb: ^  Thread [0-9]+: block \(0,0,0\) thread \(9,0,0\) core [0-9]+ warp [0-9]+ lane 9 pc 0x[0-9a-f]+ halted
# expect-gdb: ^no live thread has block \(0,0,0\) thread \(40,0,0\)$
# expect-gdb: ^hit 1 4$
# expect-gdb: breakpoint already hit 2 times
# reject-gdb: ^hit 0 5$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
