# `next` off the end of a kernel with the other threads held
# (scheduler-locking step) and several warps halted: the stepped thread's
# warp ends, nothing gdb resumed is left, and gdb stops on another thread
# (the first of the same block's other warps) with a note saying so, so a
# live thread is selected and the session goes on. Until 2026-11-28 the
# server answered 'N' (no resumed thread left): gdb 13 said "No
# unwaited-for children left." and kept the exited thread selected, so
# `print`, `next` and `continue` said "Cannot execute this command without
# a live selected thread" until a `thread N`.
# mode: many
set breakpoint pending on
break gdb_kernels.c:@MARK_many@ if $block_x == 5 && $thread_x == 40
continue
delete
set scheduler-locking step
next
next
next
print $block_x
print $thread_x
next
set scheduler-locking off
continue
# expect-gdb: ^0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: ran off the end of its kernel and exited; the other threads are stopped: gdb stops on Thread 66, block \(5,0,0\) thread \(64,0,0\)
# expect-gdb: Thread [0-9]+ "block \(5,0,0\) thread \(64,0,0\) core 0 warp 2 lane 0" stopped\.
# expect-gdb: ^\$1 = 5$
# expect-gdb: ^\$2 = 64$
# expect-gdb: ^105	
# expect-gdb: exited normally
# reject-gdb: No unwaited-for children left|without a live selected thread|SIGTRAP
# expect-app: result ok
# expect-exit: 0
