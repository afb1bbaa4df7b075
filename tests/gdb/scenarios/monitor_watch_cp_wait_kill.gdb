# gdb's `kill` while the program waits on a command processor that a
# debugger's machine halted: the server detaches, the debugger's halts go
# with it (nobody else may release them), and the program runs on to its
# end instead of waiting for ever.
# mode: basic
set breakpoint pending on
break scale
continue
delete
monitor watch cp.done data=3 do cp.halt
continue
kill
# expect-gdb: the program waits: ws_memcpy_dtoh: the command processor was halted by the debugger's debug machine 0
# expect-gdb: received signal SIGTRAP
# expect-app: result ok
# expect-exit: 0
