# gdb.e2e.stepi_diverged with conditions=server and a conditional
# breakpoint (an ebreak whose condition, $thread_x == 99, holds for no
# lane) on the store that threads 21-31 still stand at: the stepi of
# thread 20 runs their group first, which meets the ebreak; the server
# steps them over it, and that step is part of gdb's stepi, which then
# goes on to thread 20's own next instruction. Before 2026-11-27 the
# server's step over the ebreak cleared gdb's step and let everything run
# on: the stepi ran the program to its end.
# mode: collide
# debug-opts: conditions=server
set breakpoint pending on
break gdb_kernels.c:@MARK_collide_start@ if $thread_x == 0
continue
watch -l out[0] if $thread_x == 20
delete 1
continue
delete
python exec("lo = gdb.decode_line('gdb_kernels.c:@MARK_collide_all@')[1][0].pc\nhi = gdb.decode_line('gdb_kernels.c:@MARK_collide_some@')[1][0].pc\nins = gdb.selected_frame().architecture().disassemble(lo, hi - 1)\nst = [i for i in ins if i['asm'].split()[0] in ('sw', 'c.sw') and i['addr'] < hi][-1]\ngdb.execute('break *%d if $thread_x == 99' % st['addr'])")
python exec("def nxt():\n    f = gdb.selected_frame()\n    return f.architecture().disassemble(f.pc(), count=2)[1]['addr']\ndef check(tag):\n    want = nxt()\n    gdb.execute('stepi')\n    print('%s %s thread %d' % (tag, 'moved-one' if gdb.selected_frame().pc() == want else 'WRONG pc 0x%x want 0x%x' % (gdb.selected_frame().pc(), want), int(gdb.parse_and_eval('$thread_x'))))")
python check("STEP1")
python check("STEP2")
print out[0]
continue
# expect-gdb: thread \(20,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: Breakpoint 3 at
# expect-gdb: ^STEP1 moved-one thread 20$
# expect-gdb: ^STEP2 moved-one thread 20$
# expect-gdb: \$1 = 131
# expect-gdb: exited normally
# reject-gdb: Breakpoint 3, 
# expect-app: result ok
# expect-exit: 0
