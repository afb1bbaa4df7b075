# watch on a local of one thread (its stack slot; other threads' stacks and
# later threads in the same slot do not count): every write of acc in
# thread 69 (in[69] = 346; mix = 12142, +7, then *3+k three times), each
# with gdb's old and new value; reverse-continue goes back one write; the
# scope ends when that thread returns to the exit stub (the breakpoint
# gdb puts there counts for that thread only). Then rwatch/awatch on
# mid[69], which launch 2 reads (thread 69 again).
set breakpoint pending on
break rd_kernels.c:@MARK_call@ if $block_x == 1 && $thread_x == 5
continue
delete
watch acc
continue
continue
continue
continue
reverse-continue
printf "BACK %d %d acc=%d\n", $block_x, $thread_x, acc
continue
continue
continue
printf "END %d %d\n", $block_x, $thread_x
rwatch -l *(int *)0x01202114
continue
printf "READ %d %d\n", $block_x, $thread_x
awatch -l *(int *)0x01202114
reverse-continue
printf "ACCESS %d %d\n", $block_x, $thread_x
x/i $pc
delete 3
reverse-continue
printf "WRITE %d %d\n", $block_x, $thread_x
x/i $pc
monitor position
# expect-gdb: Old value = 346
# count-gdb: 1 ^New value = 12142$
# expect-gdb: New value = 12149
# count-gdb: 2 ^New value = 36447$
# count-gdb: 2 ^New value = 109342$
# expect-gdb: New value = 328028
# expect-gdb: BACK 1 5 acc=36447
# expect-gdb: Watchpoint 2 deleted because the program has left the block
# expect-gdb: END 1 5
# expect-gdb: hit Hardware read watchpoint 3: -location
# expect-gdb: Value = 328028
# expect-gdb: READ 1 5
# expect-gdb: hit Hardware access \(read/write\) watchpoint 4: -location
# expect-gdb: ACCESS 1 5
# count-gdb: 1 =>.*\slw\s
# expect-gdb: WRITE 1 5
# expect-gdb: launch 1 \(frame\) block \(1,0,0\) thread \(5,0,0\)
# count-gdb: 1 =>.*\ssw\s
# reject-gdb: No more reverse-execution history
