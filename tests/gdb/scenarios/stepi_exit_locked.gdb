# `stepi` of a thread at its kernel's exit with the other threads held
# (scheduler-locking on): the thread ends and nothing gdb resumed runs, so
# the server says so ('N': no resumed thread left) and gdb gives the
# prompt back; before 2026-11-27 gdb waited for the step's stop for ever.
# The warp of that thread is gone; a thread of the other block (gdb thread
# 34) is selected and the program runs to its end.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_after@ if $block_x == 0 && $thread_x == 3
continue
delete
finish
set scheduler-locking on
stepi
info threads
thread 34
set scheduler-locking off
continue
# expect-gdb: 0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: ran off the end of its kernel and exited
# expect-gdb: No unwaited-for children left
# expect-gdb: Switching to thread 34 
# expect-gdb: exited normally
# reject-gdb: SIGTRAP|Remote connection closed
# expect-app: result ok
# expect-exit: 0
