# A debugger's machine shares the device's event bus with the program's
# (docs/events.md, "Who holds the bus"): `monitor watch` refuses the
# actions that act on the program's trace or callback (print, trace.*),
# with the reason; `monitor watch` lists the loaded programs that still
# wait for a machine (monitor_watch_list: the whole listing); `monitor watch clear` unloads the debugger's
# machines only. (Until 2026-11-28 a debugger's `print` called the
# program's callback, `trace.stop` stopped its trace, and the clear said
# it disabled every machine, the program's too; a program still queued
# went unsaid.)
# mode: basic
set breakpoint pending on
break scale
continue
delete
monitor watch wd.dispatch do print
monitor watch wd.dispatch do count; trace.stop
monitor watch sched.warp_retire do halt
monitor watch
monitor watch clear
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: watch: 'print' acts on the program's event trace or callback, which a debugger's machine does not touch
# expect-gdb: watch: 'trace.stop' acts on the program's event trace or callback
# expect-gdb: debug machine loaded at the device's next safe point: sched.warp_retire do halt
# expect-gdb: ^  queued 0, the debugger's: 'sched.warp_retire do halt'
# expect-gdb: ^    queued: not in a machine yet
# expect-gdb: the debugger's debug machines will be unloaded at the device's next safe point
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
