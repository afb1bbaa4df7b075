# A kernel launched twice whose thread 5 loads through a null pointer
# each time (the program goes on after each fault; the capture records
# both). The frame debugger stops at each fault as the live server does:
# SIGSEGV on the faulting lane, at the faulting instruction, registers
# as before it, the device's report printed first; a step that does not
# pass the signal faults again; reverse execution from the fault works,
# and forwards again it faults there again; continue (passing the
# signal) goes on to the next fault, then to the frame end. Until
# 2026-11-29 continue ran to the frame end and only monitor position
# mentioned a fault.
continue
printf "AT %d\n", $thread_x
info line *$pc
x/i $pc
printf "BASE %d BAD %d\n", $a0, bad
monitor position
handle SIGSEGV nopass
stepi
printf "AGAIN %d\n", $thread_x
monitor position
handle SIGSEGV pass
reverse-stepi
printf "BACK %d\n", $thread_x
monitor position
stepi
continue
monitor position
continue
printf "SECOND %d\n", $thread_x
monitor position
continue
monitor position
reverse-continue
# count-gdb: 3 ^load access fault: read of 4 bytes at 0x00000000: .*kernel 'nullload' launch 1, block \(0,0,0\) thread \(5,0,0\) .*rd_lanes_kernel.c:@MARK_fault@
# count-gdb: 1 ^load access fault: read of 4 bytes at 0x00000000: .*kernel 'nullload' launch 2, block \(0,0,0\) thread \(5,0,0\)
# count-gdb: 4 Thread [0-9]+ "block \(0,0,0\) thread \(5,0,0\) [^"]*" received signal SIGSEGV
# expect-gdb: ^AT 5$
# expect-gdb: ^Line @MARK_fault@ of ".*rd_lanes_kernel.c"
# expect-gdb: => 0x[0-9a-f]+ <nullload\+[0-9]+>:\s+lw\s+a0,0\(a0\)
# expect-gdb: ^BASE 0 BAD 5$
# count-gdb: 3 ^launch 1 \(nullload\) block \(0,0,0\) thread \(5,0,0\) pc 0x[0-9a-f]+, position 0x[0-9a-f]+, instruction [0-9]+ of the thread, which faults here
# expect-gdb: ^AGAIN 5$
# expect-gdb: ^BACK 5$
# count-gdb: 1 ^launch 1 \(nullload\) block \(0,0,0\) thread \(5,0,0\) .*instruction [0-9]+ of the thread$
# expect-gdb: ^SECOND 5$
# count-gdb: 1 ^launch 2 \(nullload\) block \(0,0,0\) thread \(5,0,0\) .*which faults here
# expect-gdb: at the frame end; on the way its work failed, as when it was captured, and the replay went on
# count-gdb: 2 No more reverse-execution history
# reject-gdb: Remote failure
