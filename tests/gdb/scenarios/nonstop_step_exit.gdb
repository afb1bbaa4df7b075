# Non-stop: `next` off the end of the kernel from one lane while gdb holds
# its warp's other lanes stopped: the lane runs off the end alone. gdb
# hears that the thread exited ('w') and that nothing it resumed is left
# ('N'): the step ends, gdb marks the thread exited, and a read of it says
# so; the warp's other lanes, continued, run to the end. (Until
# 2026-11-28 gdb heard a SIGTRAP of the gone thread and read its
# registers: "Could not read registers; remote failure reply 'E.Thread 5
# is not a live lane'", after every command, until `info threads`.
# Earlier still the step stayed set on the warp, so `continue -a` ended
# at once in a SIGTRAP of lane 0 that gdb had not asked for.)
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
print $pc
thread
info threads
continue -a
# expect-gdb: 0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: No unwaited-for children left\.
# expect-gdb: ^(\(gdb\) )?The current thread has terminated$
# expect-gdb: \[Current thread is [0-9]+ \(Thread [0-9]+\) \(exited\)\]
# reject-gdb: Could not read registers
# expect-gdb: exited normally
# reject-gdb: received signal SIGTRAP|'E0e'
# expect-app: result ok
# expect-exit: 0
