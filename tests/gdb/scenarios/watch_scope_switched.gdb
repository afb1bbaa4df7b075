# A watchpoint on a kernel's local ends with its thread's exit ("deleted
# because the program has left the block"), however gdb's focus moved
# meanwhile: (1) set from a thread gdb was switched to (`thread N` after
# a stop in another thread); (2) set in the stop's thread, then another
# thread stops at a breakpoint before the watched one ends. Before
# 2026-11-29 the server stopped only the last stop's thread at the exit:
# the watched thread ended unseen, the watchpoint outlived it, and the
# program ran to its end.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_after@ if $block_x == 0 && $thread_x == 7
continue
delete
thread 5
printf "SEL %d %d\n", $block_x, $thread_x
watch i
break gdb_kernels.c:@MARK_store@ if $block_x == 1 && $thread_x == 7
continue
printf "LEFT %d %d\n", $block_x, $thread_x
continue
delete
printf "STORE %d %d\n", $block_x, $thread_x
watch i
break gdb_kernels.c:@MARK_after@ if $block_x == 1 && $thread_x == 9
continue
printf "OTHER %d %d\n", $block_x, $thread_x
continue
printf "LEFT %d %d\n", $block_x, $thread_x
continue
# expect-gdb: SEL 0 2
# expect-gdb: Hardware watchpoint 2: i
# expect-gdb: Watchpoint 2 deleted because the program has left the block
# expect-gdb: LEFT 0 2
# expect-gdb: STORE 1 7
# expect-gdb: Hardware watchpoint 4: i
# expect-gdb: OTHER 1 9
# expect-gdb: Watchpoint 4 deleted because the program has left the block
# expect-gdb: LEFT 1 7
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
