# A launch whose work distributor a debugger's machine halted waits for
# the debugger once the blocks it placed have finished: gdb hears a
# SIGTRAP stop that says so and what lets it go on, and after `monitor
# watch resume` the launch places the rest and the program's result is
# right. With no warp resident, the stop is the device's (gdb's Thread 1),
# standing in the exit stub's __ws_work_distributor_held (until
# 2026-11-28: "0x00000000 in ?? ()", named "no kernel running"). (Until
# 2026-11-28 the launch ended with WS_ERR_STOPPED, the
# program failed, and gdb heard no stop at all, only the exit; the C
# side is events.bus, check_debugger_wd_wait.)
# mode: many
monitor watch wd.dispatch data=5 do wd.halt
continue
info threads
bt
monitor watch resume
continue
# expect-gdb: the program waits: launch 1: the work distributor was halted by the debugger's debug machine 0 \('wd.dispatch data=5 do wd.halt'\) with [0-9]+ of 2048 blocks not placed; the debugger's 'monitor watch resume'
# expect-gdb: received signal SIGTRAP
# expect-gdb: ^0xfffefff4 in __ws_work_distributor_held \(\)
# expect-gdb: Thread 1 "device \(work distributor halted by the debugger: monitor watch\)" 0xfffefff4 in __ws_work_distributor_held \(\)
# expect-gdb: ^#0 +0xfffefff4 in __ws_work_distributor_held \(\)
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
