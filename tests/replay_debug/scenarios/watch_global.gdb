# A watchpoint on one element of a device buffer, set at the frame start:
# launch 1 writes mid[69] = f(in[69], 69) = 328028 (rd_capture_serve.c
# computes the frame on the host), thread 69 = block 1 thread 5. continue
# stops at that write with gdb's old and new values, the next continue
# runs to the frame end (launch 2 only reads it), and reverse-continue
# comes back to the store instruction, the values the other way round.
watch -l *(int *)0x01202114
continue
printf "AT %d %d\n", $block_x, $thread_x
continue
reverse-continue
printf "BACK %d %d\n", $block_x, $thread_x
x/i $pc
monitor position
# expect-gdb: hit Hardware watchpoint 1: -location \*\(int \*\)0x01202114
# count-gdb: 1 ^New value = 328028$
# count-gdb: 1 ^Old value = 328028$
# expect-gdb: AT 1 5
# expect-gdb: No more reverse-execution history
# expect-gdb: BACK 1 5
# expect-gdb: rd_kernels.c:@MARK_store@
# expect-gdb: =>.*\ssw\s
# expect-gdb: launch 1 \(frame\) block \(1,0,0\) thread \(5,0,0\)
