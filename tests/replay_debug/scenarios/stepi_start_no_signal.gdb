# stepi at the frame start ends like any stepi: gdb shows where the
# frame's first thread is, not a signal. The frame start carries the id
# of the thread stepi goes to (block 0, thread 0 of the first launch), so
# the stop is on the thread gdb stepped; before 2026-11-27 the frame
# start was thread 1 and the stop came on another thread, which gdb took
# for a random signal: "Thread 2 ... received signal SIGTRAP,
# Trace/breakpoint trap." The same after reverse-stepi back to the start
# (where gdb also renumbered the threads).
info threads
stepi
printf "FIRST %d %d %d\n", $block_x, $thread_x, $pc == (long)&frame
reverse-stepi
info threads
stepi
printf "AGAIN %d %d %d\n", $block_x, $thread_x, $pc == (long)&frame
stepi
printf "NEXT %d\n", $thread_x
# expect-gdb: frame start \(replay\)
# expect-gdb: FIRST 0 0 1
# expect-gdb: AGAIN 0 0 1
# expect-gdb: NEXT 0
# reject-gdb: received signal
