# Calling a device function from gdb (`call f(x)`, `print f(x)`): gdb puts
# its return address on the lane's stack, where no instruction can be
# fetched; the server holds that breakpoint with an execute trigger, which
# fires before the fetch would fault (an instruction address breakpoint
# outranks an instruction access fault), and gdb writes back the registers
# it saved, read-only ones unchanged. The thread is where it was after the
# call, steps on, and the results are unchanged.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 0 && $thread_x == 2
continue
python pc0 = int(gdb.parse_and_eval("$pc"))
call square(5)
print square(3) + 1
python print("pc kept %d" % (int(gdb.parse_and_eval("$pc")) == pc0))
print i
next
print sq
delete
continue
# expect-gdb: ^\$1 = 25$
# expect-gdb: ^\$2 = 10$
# expect-gdb: ^pc kept 1$
# expect-gdb: ^\$3 = 2$
# expect-gdb: ^@MARK_store@\s
# expect-gdb: ^\$4 = 4$
# reject-gdb: Could not write register|Cannot insert breakpoint|SIGSEGV|SIGTRAP
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
