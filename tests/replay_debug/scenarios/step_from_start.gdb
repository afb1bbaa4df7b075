# stepi at the frame start stops at the frame's first thread (block 0,
# thread 0 of its first launch) at its first instruction, and
# reverse-stepi from there is the frame start again (stepi ran to the
# frame end before 2026-11-27).
stepi
printf "FIRST %d %d %d\n", $block_x, $thread_x, $pc == (long)&frame
stepi
printf "SECOND %d %d\n", $block_x, $thread_x
reverse-stepi
reverse-stepi
info threads
# expect-gdb: FIRST 0 0 1
# expect-gdb: SECOND 0 0
# expect-gdb: frame start
