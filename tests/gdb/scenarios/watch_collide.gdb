# Several lanes of one warp-instruction store to a watched word: each
# lane's store is a stop of its own, in lane order (the order in which the
# lanes store), with that lane's old and new value, as if each thread ran
# alone. All 32 lanes store t + 100 to out[0] (lane 31's 131 stays), lanes
# 8-11 store t to out[1] (lane 11's 11 stays). Before 2026-11-27 the stop
# named the first lane (thread 0 with "New value = 131"), then the last
# lane (thread 31) only: the other lanes' stores were never seen.
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
print out[0]
delete 2
continue
print $thread_x
print t
print out[1]
continue
print $thread_x
print out[1]
delete
continue
# expect-gdb: Hardware watchpoint 2: -location out\[0\]
# expect-gdb: thread \(0,0,0\) core 0 warp 0 lane 0[" ][^"]*"? hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: New value = 100$
# expect-gdb: \$1 = 0
# expect-gdb: \$2 = 100
# expect-gdb: \$3 = 100
# expect-gdb: thread \(1,0,0\) core 0 warp 0 lane 1[" ][^"]*"? hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: Old value = 100
# expect-gdb: New value = 101
# expect-gdb: \$4 = 1
# expect-gdb: \$5 = 101
# expect-gdb: thread \(8,0,0\) core 0 warp 0 lane 8[" ][^"]*"? hit Hardware watchpoint 3: -location out\[1\]
# expect-gdb: \$6 = 8
# expect-gdb: \$7 = 8
# expect-gdb: \$8 = 8
# expect-gdb: thread \(9,0,0\) core 0 warp 0 lane 9[" ][^"]*"? hit Hardware watchpoint 3: -location out\[1\]
# expect-gdb: \$9 = 9
# expect-gdb: \$10 = 9
# reject-gdb: thread \(31,0,0\) [^"]*" hit Hardware watchpoint
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
