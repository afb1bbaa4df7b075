# A watchpoint with a condition on the thread, on a word the whole warp
# stores to in one instruction: it stops for the lane the condition names,
# with that lane's own store (old value: lane 19's, new value: lane 20's).
# Every lane that touches a watched word is a stop of its own, in lane
# order, and gdb evaluates the condition for each. Before 2026-11-27 the
# stop named one lane for the whole instruction (the last one, 31), so
# `if $thread_x == 20` never held and the program ran to its end.
# The same for the four lanes that store to out[1], and for rwatch.
# mode: collide
set breakpoint pending on
break gdb_kernels.c:@MARK_collide_start@ if $thread_x == 0
continue
watch -l out[0] if $thread_x == 20
watch -l out[1] if $thread_x == 10
delete 1
continue
print $thread_x
print v
print out[0]
continue
print $thread_x
print out[1]
continue
# expect-gdb: thread \(20,0,0\) core 0 warp 0 lane 20[" ][^"]*"? hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: Old value = 119
# expect-gdb: New value = 120
# expect-gdb: \$1 = 20
# expect-gdb: \$2 = 120
# expect-gdb: \$3 = 120
# expect-gdb: thread \(10,0,0\) core 0 warp 0 lane 10[" ][^"]*"? hit Hardware watchpoint 3: -location out\[1\]
# expect-gdb: Old value = 9
# expect-gdb: New value = 10
# expect-gdb: \$4 = 10
# expect-gdb: \$5 = 10
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
