# Several lanes of one warp-instruction store to a watched word: the stop
# names the lane whose value gdb shows as the new one, the last lane that
# stores (lanes store in ascending order; memory keeps the last value).
# All 32 lanes store t + 100 to out[0] (lane 31's 131 stays), lanes 8-11
# store t to out[1] (lane 11's 11 stays). Before 2026-11-27 the stop named
# the first lane (thread 0 with "New value = 131", thread 8 with 11).
# In timing mode (the functional path is the same code).
# mode: collide
# env: GDB_APP_CONFIG=mode=timing
set breakpoint pending on
break gdb_kernels.c:@MARK_collide_start@ if $thread_x == 0
continue
watch -l out[0]
watch -l out[1]
delete 1
continue
print $thread_x
print v
print out[0]
continue
print $thread_x
print t
print out[1]
delete
continue
# expect-gdb: Hardware watchpoint 2: -location out\[0\]
# expect-gdb: thread \(31,0,0\) core 0 warp 0 lane 31[" ][^"]*"? hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: New value = 131
# expect-gdb: \$1 = 31
# expect-gdb: \$2 = 131
# expect-gdb: \$3 = 131
# expect-gdb: thread \(11,0,0\) core 0 warp 0 lane 11[" ][^"]*"? hit Hardware watchpoint 3: -location out\[1\]
# expect-gdb: \$4 = 11
# expect-gdb: \$5 = 11
# expect-gdb: \$6 = 11
# reject-gdb: thread \(0,0,0\) [^"]*" hit Hardware watchpoint
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
