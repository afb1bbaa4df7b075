# `warpscope debug -- PROGRAM` runs an unmodified program with the server
# listening, prints the port, and passes the program's exit status on.
# mode: basic
# via-cli: yes
set breakpoint pending on
break gdb_kernels.c:@MARK_after@ if $thread_x == 31 && $block_x == 1
continue
print out[63]
print i
delete
continue
# expect-gdb: hit Breakpoint 1, scale .*gdb_kernels.c:@MARK_after@
# expect-gdb: \$1 = 4600
# expect-gdb: \$2 = 63
# expect-gdb: exited normally
# expect-app: ^listening on 127.0.0.1:[0-9]+$
# (said once: not again by the library, on stderr, as until 2026-11-28)
# reject-app: gdb server listening
# expect-app: result ok
# expect-exit: 0
