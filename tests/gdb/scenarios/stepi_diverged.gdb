# stepi of a thread whose warp is diverged with the lanes at a lower pc
# coming first: the thread moves by exactly one instruction of its own
# (the other group runs first, as it would without a debugger). Thread 20
# stops at the watchpoint on the store the whole warp makes (gdb steps it
# over its store); threads 21-31 still stand at that store, below it.
# With the watchpoint deleted, each stepi must take thread 20 to its next
# instruction. Before 2026-11-27 the first stepi ran the store of threads
# 21-31 and left thread 20 where it was (a documented limitation).
# mode: collide
set breakpoint pending on
break gdb_kernels.c:@MARK_collide_start@ if $thread_x == 0
continue
watch -l out[0] if $thread_x == 20
delete 1
continue
delete
python exec("def nxt():\n    f = gdb.selected_frame()\n    return f.architecture().disassemble(f.pc(), count=2)[1]['addr']\ndef check(tag):\n    want = nxt()\n    gdb.execute('stepi')\n    print('%s %s thread %d' % (tag, 'moved-one' if gdb.selected_frame().pc() == want else 'WRONG pc 0x%x want 0x%x' % (gdb.selected_frame().pc(), want), int(gdb.parse_and_eval('$thread_x'))))")
python check("STEP1")
python check("STEP2")
print out[0]
continue
# expect-gdb: thread \(20,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: ^STEP1 moved-one thread 20$
# expect-gdb: ^STEP2 moved-one thread 20$
# expect-gdb: \$1 = 131
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
