# Breakpoints across a second module's load and unload (issue 17, item 1):
# gdb re-inserts its breakpoints at each library event and reads the code
# under them; it must read the program's bytes, not the inserted ebreak, or
# it takes the breakpoint for part of the program and resumes mid-
# instruction. A 4-byte instruction (the lw at MARK_call, -O0) and a 2-byte
# one (the c.ebreak-sized first instruction of square) are both covered,
# and the three launches of scale give the same results as without gdb.
# mode: reload
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 0 && $thread_x == 5
break square if $block_x == 1 && $thread_x == 2
continue
x/2xh $pc
continue
continue
x/2xh $pc
continue
continue
x/2xh $pc
continue
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: Breakpoint 2, square
# reject-gdb: 0x0073[[:space:]]+0x0010
# reject-gdb: 0x9002
# reject-gdb: SIGBUS|SIGEMT|SIGSEGV|signal
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
