# One number for one thread wherever the server names it: its target id,
# written "Thread N" as gdb writes it in the Target Id column of `info
# threads` and in "[Switching to Thread N]" (N = 2 + global hart index,
# docs/debugging.md, "Threads and focus"). gdb's own numbers (the Id
# column, `thread N`) are gdb's: `thread find` turns a target id into one.
# Until 2026-11-28 the server's notes and refusals wrote "thread 7",
# which reads as gdb's `thread 7` (another lane, or none).
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $block_x == 0 && $thread_x == 5
continue
info threads 2
monitor thread block 0 0 0 thread 5 0 0
thread find ^Thread 7$
delete
set scheduler-locking on
finish
stepi
thread
set scheduler-locking off
continue
# expect-gdb: ^\[Switching to Thread 7\]$
# expect-gdb: ^\* 2 +Thread 7 "block \(0,0,0\) thread \(5,0,0\) core 0 warp 0 lane 5"
# expect-gdb: is target thread 7 \(Thread 7\)
# expect-gdb: ^Thread 2 has target id 'Thread 7'$
# expect-gdb: ^\[Thread 7 ran off the end of its kernel and exited; the other threads are stopped: gdb stops on Thread 130, block \(1,0,0\) thread \(0,0,0\)\]$
# expect-gdb: ^\[Switching to Thread 130\]$
# expect-gdb: "block \(1,0,0\) thread \(0,0,0\) core 1 warp 0 lane 0" stopped\.
# expect-gdb: ^\[Current thread is [0-9]+ \(Thread 130\)
# expect-gdb: exited normally
# reject-gdb: \[thread [0-9]
# expect-app: result ok
# expect-exit: 0
