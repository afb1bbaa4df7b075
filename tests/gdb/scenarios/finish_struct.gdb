# finish out of a function that returns a 20-byte struct through memory.
# gdb 13 reads such a value from the address in a0 on return, which the
# RISC-V ABI does not make the callee keep (clang leaves the struct's last
# field there): gdb may say "Cannot access memory" for the value
# (docs/debugging.md, limits). The caller's copy is right one line later.
# mode: quints
set breakpoint pending on
break gdb_kernels.c:@MARK_quint@ if $thread_x == 2
continue
delete
finish
next
print q
print $thread_x
continue
# expect-gdb: hit Breakpoint 1, make_quint \(x=20\) at .*gdb_kernels.c:@MARK_quint@
# expect-gdb: \$1 = \{a = 20, b = 21, c = 22, d = 23, e = 24\}
# expect-gdb: \$2 = 2
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
