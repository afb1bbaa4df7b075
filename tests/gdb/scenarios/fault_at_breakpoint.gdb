# A conditional breakpoint (condition true for no lane) on a store that
# faults for one lane: gdb must stop at the fault with the warp halted
# there, as without the breakpoint (gdb.e2e.oob): the faulting lane's
# registers and locals, `monitor fault`, and continue ends the launch with
# the fault. gdb takes a fault at an address where it has a breakpoint
# inserted for a hit of that breakpoint (its rule for targets that report
# breakpoints as SIGSEGV), finds the condition false and steps the thread
# over it; that step runs the faulting instruction again, which faults
# again, now reported with the breakpoint out. Before 2026-11-27 the
# step let the fault end the launch and gdb never stopped ("exited
# normally"). The same with conditions=server (the breakpoint an ebreak
# the server steps the warp over): fault_at_breakpoint_server.gdb.
# mode: oob
set breakpoint pending on
break gdb_kernels.c:@MARK_oob@ if $thread_x == 0
continue
python exec("r = gdb.decode_line('gdb_kernels.c:@MARK_oob@')[1][0].pc\nins = gdb.selected_frame().architecture().disassemble(r, r + 64)\nst = [i for i in ins if i['asm'].split()[0] in ('sw', 'c.sw')][0]\ngdb.execute('break *%d if $thread_x == 99' % st['addr'])")
delete 1
continue
print i
print $thread_x
monitor fault
continue
# expect-gdb: received signal SIGSEGV
# expect-gdb: \$1 = 4
# expect-gdb: \$2 = 4
# expect-gdb: ^store access fault: write of 4 bytes at 0x[0-9a-f]+: out of bounds
# reject-gdb: Remote failure reply|Could not read registers|is not a live lane
# expect-gdb: exited normally
# expect-app: oob launch: WS_ERR_KERNEL_FAULT
# expect-exit: 0
