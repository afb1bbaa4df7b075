# gdb.e2e.watch_at_breakpoint with conditions=server: the breakpoint on
# the store is an ebreak whose condition ($thread_x == 3) the server
# evaluates. The later lanes (4-31) reach that ebreak again after gdb's
# step of lane 3; the condition fails for all of them, so the server
# steps their warp over it itself, and the watchpoint's trigger fires in
# that step for lane 4; gdb's step of lane 4 over its access then meets
# the ebreak too (gdb steps a thread over a watchpoint with its
# breakpoints inserted). Every changing lane must stop once, in lane
# order, as without conditions=server. Before 2026-11-27 the server
# reported lane 4's stop but let the warp run on (its step over the
# breakpoint "ended"), so gdb's step of lane 4 found no such thread
# ("Remote failure reply: E0e") and the stop was lost; and a gdb step
# that met such an ebreak ran the program on to its end.
# mode: collide
# debug-opts: conditions=server
set breakpoint pending on
break gdb_kernels.c:@MARK_collide_start@ if $thread_x == 0
continue
python exec("lo = gdb.decode_line('gdb_kernels.c:@MARK_collide_all@')[1][0].pc\nhi = gdb.decode_line('gdb_kernels.c:@MARK_collide_some@')[1][0].pc\nins = gdb.selected_frame().architecture().disassemble(lo, hi - 1)\nst = [i for i in ins if i['asm'].split()[0] in ('sw', 'c.sw') and i['addr'] < hi][-1]\ngdb.execute('break *%d if $thread_x == 3' % st['addr'])")
delete 1
continue
print $thread_x
watch -l out[0]
continue
print $thread_x
continue
print $thread_x
continue
print $thread_x
delete
continue
# expect-gdb: thread \(3,0,0\) [^"]*" hit Breakpoint 2
# expect-gdb: \$1 = 3
# expect-gdb: thread \(3,0,0\) [^"]*" hit Hardware watchpoint 3: -location out\[0\]
# expect-gdb: New value = 103$
# expect-gdb: \$2 = 3
# expect-gdb: thread \(4,0,0\) [^"]*" hit Hardware watchpoint 3: -location out\[0\]
# expect-gdb: Old value = 103$
# expect-gdb: New value = 104$
# expect-gdb: \$3 = 4
# expect-gdb: thread \(5,0,0\) [^"]*" hit Hardware watchpoint 3: -location out\[0\]
# expect-gdb: Old value = 104$
# expect-gdb: New value = 105$
# expect-gdb: \$4 = 5
# expect-gdb: exited normally
# reject-gdb: Remote failure reply
# expect-app: result ok
# expect-exit: 0
