# `warpscope debug --socket PATH`: the command serves gdb on a Unix-domain
# socket, says so, and writes the path to --port-file; gdb connects with
# `target remote PATH` (run_gdb.sh also checks the stale file is replaced,
# a second server on the path is refused and the file is gone at the end).
# mode: basic
# transport: unix
# via-cli: yes
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $thread_x == 5 && $block_x == 1
continue
printf "hit %d %d\n", $block_x, $thread_x
delete
continue
# expect-gdb: ^hit 1 5$
# expect-gdb: exited normally
# expect-app: ^listening on /.*/gdb\.sock$
# expect-app: result ok
# expect-exit: 0
