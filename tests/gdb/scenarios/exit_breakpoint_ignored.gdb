# A breakpoint at the kernel's exit (0xffff0000) whose first hit gdb
# ignores (an ignore count): gdb steps the thread over it alone, and the
# thread, the last of the launch's only warp, ends. Nothing is left to
# hold, so the program runs on and gdb's `continue` ends with its exit;
# before 2026-11-28 the server answered that no resumed thread was left:
# gdb stopped with "No unwaited-for children left" and no thread at all,
# and nothing could resume the program.
# mode: twins
set breakpoint pending on
break twins
continue
delete
break *0xffff0000
ignore 2 1
continue
info breakpoints
# expect-gdb: hit Breakpoint 1, twins
# expect-gdb: exited normally
# expect-gdb: breakpoint already hit 1 time
# reject-gdb: No unwaited-for children left
# reject-gdb: ran off the end of its kernel
# expect-app: result ok
# expect-exit: 0
