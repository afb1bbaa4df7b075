# gdb.e2e.fault_at_breakpoint with conditions=server: the breakpoint on
# the faulting store is an ebreak whose condition holds for no lane, so
# the server steps the warp over it itself and the store faults in that
# step. Before 2026-11-27 the server ended its step over the breakpoint by
# letting the warp run on (the fault's stop was reported for a launch that
# had ended), and gdb's step over the breakpoint then ended the launch:
# gdb never stopped.
# mode: oob
# debug-opts: conditions=server
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
