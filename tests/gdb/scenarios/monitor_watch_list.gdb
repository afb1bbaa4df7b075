# `monitor watch` lists every debug machine on the device's event bus:
# whose it is (the program's, here the event watcher's from
# WARPSCOPE_WATCH_MACHINES, or the debugger's), its machine number, its
# program and its state (armed and on which step, done, fired how many
# times, its count), and the debugger's programs still queued. (Until
# 2026-11-28 it gave only the last halt's reason and how many programs
# were queued: a user could not see what was armed.)
# mode: basic
# env: WARPSCOPE_WATCH_MACHINES=wd.dispatch do count; rearm
set breakpoint pending on
break scale
continue
delete
monitor watch sched.warp_retire do halt
monitor watch cp.done data=99 then cp.done do cp.halt
monitor watch
continue
monitor watch
monitor watch clear
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: ^no debug machine has halted the device
# expect-gdb: ^  machine 0, the program's: 'wd.dispatch do count; rearm'
# expect-gdb: ^    armed, waiting on step 1 of 1, fired 2 times, count 2
# expect-gdb: ^  queued 0, the debugger's: 'sched.warp_retire do halt'
# expect-gdb: ^  queued 1, the debugger's: 'cp.done data=99 then cp.done do cp.halt'
# expect-gdb: ^    queued: not in a machine yet
# expect-gdb: debug machine 1 fired on sched.warp_retire
# expect-gdb: ^  machine 1, the debugger's: 'sched.warp_retire do halt'
# expect-gdb: ^    done, fired 1 time$
# expect-gdb: ^  machine 2, the debugger's: 'cp.done data=99 then cp.done do cp.halt'
# expect-gdb: ^    armed, waiting on step 1 of 2, fired 0 times
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
