# A halt of the work distributor or command processor that a debugger's
# machine causes is the debugger's to release (docs/events.md, "Who holds
# the bus"): `monitor help` says that `monitor watch clear` releases it
# along with the machines; the clear here, before the machine fired, says
# that there is no halt to release (monitor_watch_resume: one that is). (Until 2026-11-28 a halt was the
# device's, and the program's ws_events_resume released the debugger's;
# the C side is events.bus, check_halt_holders.)
# mode: basic
set breakpoint pending on
break scale
continue
delete
monitor help
monitor watch cp.done data=3 do cp.halt
monitor watch clear
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: watch clear +unload the debugger's debug machines \(and release
# expect-gdb: debug machine loaded at the device's next safe point: cp.done data=3 do cp.halt
# expect-gdb: unloaded at the device's next safe point; they held no halt at its last stop
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
