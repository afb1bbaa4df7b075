# The server on a Unix-domain socket (WARPSCOPE_DEBUG socket=PATH) instead
# of loopback TCP: gdb connects with `target remote PATH`; port-file holds
# the path. run_gdb.sh leaves a stale socket file at PATH first (a crashed
# earlier run's: replaced), checks that a second program asking for the
# same path is refused, and fails if the socket file is still there
# after the program ended. Breakpoint, thread list, locals, exit as over TCP.
# mode: basic
# transport: unix
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $thread_x == 5 && $block_x == 1
continue
printf "hit %d %d\n", $block_x, $thread_x
print sq
info threads
delete
continue
# expect-gdb: ^hit 1 5$
# expect-gdb: ^\$1 = 1369$
# expect-gdb: Thread [0-9]+ "block \(1,0,0\) thread \(5,0,0\)
# expect-gdb: exited normally
# expect-app: gdb server listening on /.*/gdb\.sock$
# expect-app: result ok
# expect-exit: 0
