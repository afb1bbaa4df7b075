# `next` over a line on which the lanes of a warp spin on a lock taken
# with a compare-and-swap: lane 0 gets it first, the others retry at a
# lower pc than the holder, which only the starvation guard lets on. A
# holder goes on through its release and out of the kernel, as it would
# without a debugger, so lanes 0-4 take the lock and leave. Thread 5, the
# one followed, takes it and waits where it left the line, holding it:
# lanes 6-31 spin, and the step ends after 100,000 instructions of the
# warp with a note naming them, thread 5 at the start of the next line.
# `continue` lets every lane through. Until 2026-11-28 a debug halt ended
# the guard's turn, so a stepped warp's holder got one instruction per
# guard turn (lanes crept through the line, and gdb, left mid-line, stepped
# on); before that gdb range-stepped one line-table row at a time (77 s).
# mode: lock_line
set breakpoint pending on
break gdb_kernels.c:@MARK_lock_take@ if $thread_x == 5
continue
print *lock
print *count
next
info line *$pc
print $thread_x
print *lock
print *count
print order[5]
info threads
delete
continue
# expect-gdb: hit Breakpoint 1, lock_line .*gdb_kernels.c:@MARK_lock_take@
# expect-gdb: \$1 = 0$
# expect-gdb: \$2 = 0$
# expect-gdb: ^\[lanes 0xffffffc0 of the warp of Thread 7 are still on the line after 100000 instructions of the warp: the step ends without them\]
# expect-gdb: ^@MARK_lock_held@\s
# expect-gdb: ^Line @MARK_lock_held@ of .*gdb_kernels.c" starts at address 0x[0-9a-f]+ <lock_line\+[0-9]+>
# expect-gdb: \$3 = 5$
# expect-gdb: \$4 = 1$
# expect-gdb: \$5 = 5$
# expect-gdb: \$6 = 0$
# expect-gdb: lane 5" +lock_line .*gdb_kernels.c:@MARK_lock_held@
# expect-gdb: lane 6" +0x[0-9a-f]+ in lock_line .*gdb_kernels.c:@MARK_lock_take@
# expect-gdb: lane 31" +0x[0-9a-f]+ in lock_line .*gdb_kernels.c:@MARK_lock_take@
# reject-gdb: lane [0-4]"
# expect-gdb: exited normally
# expect-app: lock taken 32 times, lock free
# expect-app: result ok
# expect-exit: 0
