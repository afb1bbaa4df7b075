# Non-stop `interrupt -a` (vCont;t for every thread): running warps halt
# and their lanes are told stopped; threads already stopped (the warp
# at the breakpoint) have nothing new to say. Before, the server made up
# a SIGINT stop for one of them, which then ended `continue -a` at once.
# Commands are fed as typed at a prompt (pace).
# mode: nonstop
# pre: set non-stop on
# pre: set width 0
# pace: 0.4
set breakpoint pending on
break gdb_kernels.c:@MARK_spin@ if $block_x == 1 && $thread_x == 3
continue
interrupt -a
python print("running after interrupt %d" % sum(1 for t in gdb.selected_inferior().threads() if t.is_running()))
delete
continue -a
# expect-gdb: hit Breakpoint 1, spin
# expect-gdb: running after interrupt 0$
# reject-gdb: SIGINT
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
