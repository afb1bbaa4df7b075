# A watchpoint on a word that atomics update names the lane whose update
# gdb shows. atomicAdd_ll is one amoadd.d (a compare-and-swap loop on
# amocas.d until 2026-11-28, whose first lane per round changed the sum):
# lanes add in lane order (lane 0 adds 0, a store of the same value, then
# lane 1 adds 1 << 33, lane 2 2 << 33, ...). The stop must name that lane: thread 1 with 8589934592, thread 2 with
# 25769803776, thread 3 with 51539607552. atomicAdd_i (amoadd.w) adds for
# every lane, each lane's addition a stop of its own: with a condition on
# lane 31, its addition from 31 to 32. Before 2026-11-27 the stops named
# lane 0 every time (a failed swap stores nothing; the first lane was
# named), and after the first fix for stores, lane 31 only (a condition
# on any other lane never held).
# mode: collide
set breakpoint pending on
break cas_turns
continue
watch -l *sum
watch -l *count
delete 1
continue
print $thread_x
continue
print $thread_x
continue
print $thread_x
delete 2
condition 3 $thread_x == 31
continue
print $thread_x
delete
continue
# expect-gdb: thread \(1,0,0\) [^"]*" hit Hardware watchpoint 2: -location \*sum
# expect-gdb: New value = 8589934592
# expect-gdb: \$1 = 1
# expect-gdb: thread \(2,0,0\) [^"]*" hit Hardware watchpoint 2: -location \*sum
# expect-gdb: New value = 25769803776
# expect-gdb: \$2 = 2
# expect-gdb: thread \(3,0,0\) [^"]*" hit Hardware watchpoint 2: -location \*sum
# expect-gdb: New value = 51539607552
# expect-gdb: \$3 = 3
# expect-gdb: thread \(31,0,0\) [^"]*" hit Hardware watchpoint 3: -location \*count
# expect-gdb: \$4 = 31
# expect-gdb: Old value = 31$
# expect-gdb: New value = 32$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
