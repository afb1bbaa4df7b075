# `stepi` of a thread at its kernel's exit with the other threads held
# (scheduler-locking on): the thread ends and nothing gdb resumed runs, so
# gdb stops on a thread that is left (block 1's first: its block has no
# other warp) with a note, and gives the prompt back; before 2026-11-27
# gdb waited for the step's stop for ever, and until 2026-11-28 it said
# "No unwaited-for children left." with the exited thread selected. The
# program runs to its end.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_after@ if $block_x == 0 && $thread_x == 3
continue
delete
finish
set scheduler-locking on
stepi
print $block_x
set scheduler-locking off
continue
# expect-gdb: 0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: ran off the end of its kernel and exited
# expect-gdb: the other threads are stopped: gdb stops on Thread 130, block \(1,0,0\) thread \(0,0,0\)
# expect-gdb: "block \(1,0,0\) thread \(0,0,0\) core 1 warp 0 lane 0" stopped\.
# expect-gdb: ^\$1 = 1$
# reject-gdb: No unwaited-for children left
# expect-gdb: exited normally
# reject-gdb: SIGTRAP|Remote connection closed
# expect-app: result ok
# expect-exit: 0
