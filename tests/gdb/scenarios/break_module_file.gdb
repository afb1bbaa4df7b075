# gdb given the kernels' module as its file (`gdb-multiarch kernels.elf`,
# as one gives cuda-gdb the program) knows the code before the program
# loads it, so `break` on a line is not pending: gdb inserts it at
# `continue`, where no module is loaded yet. The server holds it with an
# execute trigger until gdb moves it into the loaded code. (Before: gdb's
# insert was refused, "Cannot insert breakpoint 1. Cannot access memory
# at address ...", and the session could not continue.)
# mode: basic
# pre: file @KERNELS@
break gdb_kernels.c:@MARK_store@
continue
print $thread_x
print $block_x
print i
delete
continue
# expect-gdb: ^Breakpoint 1 at 0x[0-9a-f]+: file .*gdb_kernels.c, line @MARK_store@
# expect-gdb: Breakpoint 1, scale \(.*\) at .*gdb_kernels.c:@MARK_store@
# expect-gdb: \$1 = 0
# expect-gdb: \$2 = 0
# expect-gdb: \$3 = 0
# reject-gdb: Cannot insert breakpoint|Cannot access memory
# expect-gdb: exited normally|exited with code 00
# expect-app: result ok
# expect-exit: 0
