# Non-stop mode: a watchpoint conditional on the thread, on a word the
# whole warp stores to in one instruction, stops for that thread with its
# own store (old: lane 19's 119, new: lane 20's 120), as in all-stop
# (watch_lane_cond): the later lanes sit out gdb's step of each reported
# lane and meet the trigger again. Before 2026-11-27 the stop named one
# lane for the whole instruction and the program ran to its end.
# mode: collide
# pre: set non-stop on
# pace: 0.4
set breakpoint pending on
break gdb_kernels.c:@MARK_collide_start@ if $thread_x == 0
continue
thread 2
watch -l out[0] if $thread_x == 20
delete 1
continue -a
delete
continue -a
# expect-gdb: thread \(20,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: Old value = 119
# expect-gdb: New value = 120
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
