# A function gdb calls on a lane faults (here a call through a null
# function pointer: an instruction access fault at 0x10). The fault is
# the call's, not the program's: with `set unwindonsignal on` gdb unwinds
# the call and puts the lane's registers back, and the server has the
# device forget the fault, so `next` steps the line and the launch ends
# with the right results. Until 2026-11-28 the warp stayed faulted: `next`
# reported the SIGSEGV again and the launch ended with the fault.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 0 && $thread_x == 2
continue
set unwindonsignal on
call ((int (*)(int))0x10)(1)
print i
next
print sq
delete
continue
# expect-gdb: signaled while in a function called from GDB
# expect-gdb: GDB has restored the context to what it was before the call
# expect-gdb: ^\$1 = 2$
# expect-gdb: ^@MARK_store@\s
# expect-gdb: ^\$2 = 4$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
