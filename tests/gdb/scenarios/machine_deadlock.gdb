# The walkthrough's deadlock from gdb (issue 10): a debug machine loaded
# with `monitor watch` halts the device when a barrier wait never ends;
# gdb's console names it, `monitor warps` shows both warps waiting; on
# continue the device stops gdb again with its deadlock report, and on the
# next continue the launch ends with the deadlock.
# mode: deadlock
set breakpoint pending on
break split_barrier
continue
delete
monitor watch sched.barrier_wait for>1000 do halt
continue
monitor warps
continue
continue
# expect-gdb: Breakpoint 1, split_barrier
# expect-gdb: debug machine 0 fired on sched.barrier_wait
# expect-gdb: received signal SIGTRAP
# expect-gdb: exited normally
# expect-app: deadlock launch: WS_ERR_DEADLOCK
# expect-exit: 0
