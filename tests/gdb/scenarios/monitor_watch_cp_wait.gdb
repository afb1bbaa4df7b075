# A program waiting on a command processor that a debugger's machine
# halted waits for the debugger rather than failing its call: gdb hears a
# SIGTRAP stop that says what the program waits for and what lets it go
# on; gdb still reads device memory meanwhile (the scale kernel's output,
# i*i + 10*i + 2, at the kernel's `out`, kept from its breakpoint: heap
# addresses move with the test modules' sizes), `monitor watch` repeats
# the reason, a `continue` with the halt still held stops again at once,
# and `monitor watch resume` lets the program's copy go on. The stop is
# the device's (no warp is resident), in the exit stub's
# __ws_command_processor_held (until 2026-11-28 at "0x00000000 in ?? ()",
# named "no kernel running"). (Until
# 2026-11-28 the program's ws_memcpy_dtoh returned WS_ERR_STOPPED and the
# program failed while the user only looked; the C side is events.bus,
# check_debugger_wait.)
# mode: basic
set breakpoint pending on
break scale
continue
set $out = out
delete
monitor watch cp.done data=3 do cp.halt
continue
monitor watch
x/4dw $out
continue
monitor watch resume
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: the program waits: ws_memcpy_dtoh: the command processor was halted by the debugger's debug machine 0 \('cp.done data=3 do cp.halt'\) with 0 commands queued; the debugger's 'monitor watch resume'
# expect-gdb: Thread [0-9]+ "device \(command processor halted by the debugger: monitor watch\)" received signal SIGTRAP
# expect-gdb: ^0xfffefff8 in __ws_command_processor_held \(\)
# expect-gdb: 0x[0-9a-f]+:[[:space:]]+2[[:space:]]+13[[:space:]]+26[[:space:]]+41
# expect-gdb: exited normally
# reject-gdb: Remote connection closed
# expect-app: result ok
# expect-exit: 0
