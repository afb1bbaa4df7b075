# `monitor position` at a breakpoint stop: the replay counted breakpoint
# hits, not the thread's instructions, so it says the ordinal is not known
# yet (before 2026-11-27 it said "instruction 0 of the thread", which is
# the frame start's). A stepi counts it; a reverse-stepi goes back one.
set breakpoint pending on
break rd_kernels.c:@MARK_add@ if $block_x == 0 && $thread_x == 3
continue
monitor position
stepi
monitor position
reverse-stepi
monitor position
# expect-gdb: thread \(3,0,0\) pc 0x[0-9a-f]+, position 0x[0-9a-f]+, its instruction ordinal not counted yet
# reject-gdb: instruction 0 of the thread
# expect-gdb: thread \(3,0,0\) pc 0x[0-9a-f]+, position 0x[0-9a-f]+, instruction [1-9][0-9]* of the thread
# count-gdb: 2 , instruction [1-9][0-9]* of the thread
