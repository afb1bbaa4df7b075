# Non-stop: `next` off the end of the kernel from one lane while gdb holds
# its warp's other lanes stopped: the lane runs off the end alone. gdb's
# read of the ended thread fails with the reason, not a bare E0e, and the
# warp's other lanes, continued, run to the end: until 2026-11-28 the
# step stayed set on the warp (it was cleared through the ended lane),
# so `continue -a` ended at once in a SIGTRAP of lane 0 that gdb had not
# asked for, and its register read said only "remote failure reply 'E0e'".
# (gdb 13 keeps the ended thread selected until it next lists the threads:
# `info threads` here; docs/debugging.md, walk-through 8.)
# mode: basic
# pre: set non-stop on
# pace: 0.4
set breakpoint pending on
break gdb_kernels.c:@MARK_after@ if $block_x == 0 && $thread_x == 3
continue
python gdb.execute("thread %d" % next(t.num for t in gdb.selected_inferior().threads() if t.name and t.name.startswith("block (0,0,0) thread (3,0,0)")))
delete
next
next
next
info threads
continue -a
# expect-gdb: 0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: The current thread <Thread ID [0-9]+> has terminated
# expect-gdb: Could not read registers; remote failure reply 'E\.Thread 5 is not a live lane'
# expect-gdb: exited normally
# reject-gdb: received signal SIGTRAP|'E0e'
# expect-app: result ok
# expect-exit: 0
