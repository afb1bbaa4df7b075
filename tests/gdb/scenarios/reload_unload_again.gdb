# A module unloaded and at once loaded again, three times (gdb_app
# reload_late): the program waits at each unload until gdb continues, so
# gdb sees the module gone, then the new copy, and sets its breakpoint in
# every copy. (Before, the unload reached gdb only after the next load,
# as one list with the module at a new address: gdb kept the breakpoint
# disabled and the third copy ran past it.)
# mode: reload_late
set breakpoint pending on
break gdb_dyn_kernel.c:@MARK_late@ if $thread_x == 6
continue
print i
continue
print i
continue
print i
info breakpoints
continue
# expect-gdb: Breakpoint 1, late
# expect-gdb: \$3 = 6
# expect-gdb: breakpoint already hit 3 times
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
