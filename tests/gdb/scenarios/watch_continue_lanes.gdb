# The live reference for replay_debug.watch_continue_lanes: thread 5 steps
# onto the store every lane of the warp makes to a watched word; continue
# from there stops for the first lane that stores there (thread 0, old 0,
# new 100: the whole warp resumes, and the trigger names the first lane),
# then for each next lane, in lane order, each with its own values.
# mode: collide
set breakpoint pending on
break gdb_kernels.c:@MARK_collide_all@ if $thread_x == 5
continue
watch -l out[0]
delete 1
python exec("for _ in range(8):\n    ins = gdb.selected_frame().architecture().disassemble(gdb.selected_frame().pc())[0]\n    if ins['asm'].split()[0] in ('sw', 'c.sw'):\n        break\n    gdb.execute('stepi')")
printf "ONTO %d\n", $thread_x
continue
printf "FIRST %d %d\n", $thread_x, out[0]
continue
printf "SECOND %d %d\n", $thread_x, out[0]
continue
printf "THIRD %d %d\n", $thread_x, out[0]
delete
continue
# expect-gdb: ^ONTO 5$
# expect-gdb: thread \(0,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: ^FIRST 0 100$
# expect-gdb: thread \(1,0,0\) [^"]*" hit Hardware watchpoint 2: -location out\[0\]
# expect-gdb: ^SECOND 1 101$
# expect-gdb: ^THIRD 2 102$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
