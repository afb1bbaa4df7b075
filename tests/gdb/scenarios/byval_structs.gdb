# Structs by value (since 2026-11-29): gdb reads a kernel's struct
# parameters where the ilp32f convention put them — `s` from fa0 and a0,
# `t` through the address of the lane's own copy — and each lane's copy is
# its own: lane 3's change to t.v[0] is not lane 0's.
# mode: byval
set breakpoint pending on
break gdb_kernels.c:@MARK_byval_use@ if $thread_x == 3
continue
print s
print t
print t.v[0]
python gdb.execute("thread %d" % next(th.num for th in gdb.selected_inferior().threads() if th.name.startswith("block (0,0,0) thread (0,0,0) ")))
print t.v[0]
delete
continue
# expect-gdb: \$1 = \{scale = 2, offset = 100\}
# expect-gdb: \$2 = \{v = \{4, 2, 3, 4, 5, 6\}, weight = 1000\}
# expect-gdb: \$3 = 4
# expect-gdb: \$4 = 1
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
