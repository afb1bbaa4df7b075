# The walkthrough's starved spin lock from gdb (issue 10): a debug machine
# loaded with `monitor watch` halts the device at the 10th time the
# starvation guard has to step in; gdb's console names it; on continue the
# program finishes with the right count.
# mode: spinlock
set breakpoint pending on
break spin_lock
continue
delete
monitor watch sched.starve count=10 do halt
continue
monitor warps
continue
# expect-gdb: Breakpoint 1, spin_lock
# expect-gdb: debug machine 0 fired on sched.starve
# expect-gdb: received signal SIGTRAP
# expect-gdb: exited normally
# expect-app: spin lock taken 64 times
# expect-exit: 0
