# A breakpoint gdb inserts from the module's file before the program has
# loaded the module is held by an execute trigger; gdb moves it into the
# code at its first stop, with the kind it then reads there (it may have
# guessed another). The held trigger goes then: until 2026-11-29 it
# stayed, so each pass halted twice and a `next` from a lane that had
# stepped onto the breakpoint's address stopped there again instead of
# stepping. Here: the loop of the 3x3 blur, stepped round to its inner
# line (the second hit: the step lands on the breakpoint) and past it
# (no third).
# mode: blur
# pre: file @KERNELS@
set scheduler-locking step
break gdb_kernels.c:@MARK_blur_sum@
continue
next
next
next
info breakpoints
delete
continue
# expect-gdb: hit Breakpoint 1, blur2d .*gdb_kernels.c:@MARK_blur_sum@
# expect-gdb: ^@MARK_blur_sum@\s
# expect-gdb: breakpoint already hit 2 times
# reject-gdb: received signal SIGTRAP
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
