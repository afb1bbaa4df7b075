# `monitor watch resume` releases the work distributor's and command
# processor's halts that the debugger's machines caused and keeps the
# machines loaded (`monitor watch clear` unloads them too). The machine
# halts the command processor and the warps when the first warp retires;
# gdb stops, resumes the command processor and continues: the program's
# copy of the result, which the halt holds, goes on. (Until 2026-11-28
# only `monitor watch clear` released it; the C side is events.bus,
# check_debugger_resume.)
# mode: basic
set breakpoint pending on
break scale
continue
delete
monitor help
monitor watch sched.warp_retire do cp.halt; halt
continue
monitor watch resume
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: watch resume +release the wd/cp halts the debugger's machines
# expect-gdb: debug machine loaded at the device's next safe point: sched.warp_retire do cp.halt; halt
# expect-gdb: debug machine 0 fired on sched.warp_retire .* \(its program: 'sched.warp_retire do cp.halt; halt'\)
# expect-gdb: received signal SIGTRAP
# expect-gdb: will be released at the device's next safe point; the machines stay loaded and armed
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
