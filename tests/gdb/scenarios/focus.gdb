# Switch to a thread by its block/thread coordinates: the monitor command
# names it, `thread find` finds gdb's number, and a Python one-liner (or
# `thread N`) switches; locals then belong to that thread.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $block_x == 1 && $thread_x == 0
continue
monitor thread block 1 0 0 thread 3 0 0
thread find block (1,0,0) thread (3,0,0)
python gdb.execute("thread %d" % next(t.num for t in gdb.selected_inferior().threads() if t.name.startswith("block (1,0,0) thread (3,0,0)")))
print $thread_x
print $block_x
print i
print sq
delete
continue
# expect-gdb: block \(1,0,0\) thread \(3,0,0\) core [0-9]+ warp [0-9]+ lane 3 is target thread [0-9]+
# expect-gdb: Thread [0-9]+ has target name 'block \(1,0,0\) thread \(3,0,0\)
# expect-gdb: Switching to thread [0-9]+ \(Thread [0-9]+\)
# expect-gdb: \$1 = 3
# expect-gdb: \$2 = 1
# expect-gdb: \$3 = 35
# expect-gdb: \$4 = 1225
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
