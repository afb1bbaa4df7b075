# A watchpoint on the word a store writes, while gdb is stopped at a
# conditional breakpoint on that very store instruction (held by an
# execute trigger with its condition): gdb's step over the breakpoint
# makes the store, and the watchpoint stops for it, for the stepped
# thread (lane 3, with its own value: the lanes before it stored too,
# the lanes after it sit the step out), then for the next lane. Before
# 2026-11-27 resuming from the execute trigger's halt skipped every
# trigger for that instruction, the load/store one too, so the store went
# unseen; and a store trigger naming another lane than the one gdb
# stepped alone was reported for a thread gdb had not resumed, which it
# never heard (gdb hung).
# mode: collide
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
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
