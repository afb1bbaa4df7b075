# `monitor watch resume` releases the work distributor's and command
# processor's halts that the debugger's machines caused and keeps the
# machines loaded (`monitor watch clear` unloads them too). The machine
# halts the command processor and the warps when the first warp retires;
# gdb stops, resumes the command processor and continues: the program's
# copy of the result, which the halt holds, goes on. (Until 2026-11-28
# only `monitor watch clear` released it; the C side is events.bus,
# check_debugger_resume.) Before any machine halted anything, resume and
# clear say that there is nothing to release (until 2026-11-28 they said
# a halt "will be released" when none was held), and after the halt
# resume names the unit it releases.
# mode: basic
set breakpoint pending on
break scale
continue
delete
monitor help
monitor watch resume
monitor watch clear
monitor watch sched.warp_retire do cp.halt; halt
continue
monitor watch resume
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: watch resume +release the wd/cp halts the debugger's machines
# expect-gdb: ^the debugger's debug machines hold no halt of the work distributor or command processor \(as the device showed them at its last stop\): nothing to release
# expect-gdb: ^the debugger's debug machines will be unloaded at the device's next safe point; they held no halt at its last stop
# expect-gdb: debug machine loaded at the device's next safe point: sched.warp_retire do cp.halt; halt
# expect-gdb: debug machine 0 fired on sched.warp_retire .* \(its program: 'sched.warp_retire do cp.halt; halt'\)
# expect-gdb: received signal SIGTRAP
# expect-gdb: ^the command processor's halt that the debugger's debug machines caused will be released at the device's next safe point; the machines stay loaded and armed
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
