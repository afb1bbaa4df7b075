# A watchpoint on a float that atomicAdd (one amofadd.s) updates: each
# lane's add is a stop of its own, with the value the add leaves. With a
# condition on lane 5 the stop is its add, from 0 + 1 + 2 + 3 + 4 = 10 to
# 15: the debugger predicts the float sum, as it does an integer one.
# mode: float_turns
set breakpoint pending on
break float_turns
continue
watch -l *sum
condition 2 $thread_x == 5
delete 1
continue
print $thread_x
delete
continue
# expect-gdb: thread \(5,0,0\) [^"]*" hit Hardware watchpoint 2: -location \*sum
# expect-gdb: Old value = 10$
# expect-gdb: New value = 15$
# expect-gdb: \$1 = 5$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
