# gdb loads a debug machine (issue 10): `monitor watch` programs the
# device through the debug hardware while the kernel is stopped at a
# breakpoint (a bad program is refused with the reason); on continue, the
# machine halts everything when the first warp retires, gdb's console names
# the machine and the event, and `monitor watch` repeats the reason.
# mode: basic
set breakpoint pending on
break scale
continue
delete
monitor watch sched.warp_retire do halt
monitor watch no.such.event do halt
continue
monitor watch
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: debug machine loaded at the device's next safe point: sched.warp_retire do halt
# expect-gdb: watch: 'no.such.event' is not an event
# expect-gdb: debug machine 0 fired on sched.warp_retire
# expect-gdb: received signal SIGTRAP
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
