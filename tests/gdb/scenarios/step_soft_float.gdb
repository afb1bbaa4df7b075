# `step` on a line of `double` arithmetic steps over libgcc's soft-float
# helpers, as gdb does over a CPU's libgcc: rv32imafc has no D extension,
# so `old.d + v` and `(double)v` call __adddf3 and __extendsfdf2, and the
# build links libgcc without its line information (libwsgcc.a,
# kernel/CMakeLists.txt). The step ends on the kernel's next line with
# every lane's add done (0 + 1 + ... + 31 = 496.0) and the next line not
# run (count 32 from the line before). Until 2026-11-28 modules linked
# Debian's libgcc.a, whose soft-fp sources carry lines: `step` stopped in
# __extendsfdf2 (extendsfdf2.c), a file the user does not have.
# mode: float_turns
set breakpoint pending on
break gdb_kernels.c:@MARK_double_add@ if $thread_x == 5
continue
print *count
step
info line *$pc
print *dsum
print *count
bt 1
delete
continue
# expect-gdb: hit Breakpoint 1, float_turns .*gdb_kernels.c:@MARK_double_add@
# expect-gdb: ^\$1 = 32$
# expect-gdb: ^Line @MARK_double_count@ of .*gdb_kernels.c
# expect-gdb: ^\$2 = 496$
# expect-gdb: ^\$3 = 32$
# expect-gdb: ^#0 +float_turns .*gdb_kernels.c:@MARK_double_count@
# reject-gdb: (extendsfdf2|adddf3|truncdfsf2)\.c|soft-fp|__(extendsfdf2|adddf3) \(
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
