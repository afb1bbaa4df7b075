# 261 resident modules (gdb_app many_modules: the late module loaded 260
# times under one long path): `monitor modules` lists every one, and
# gdb's library list has them all. (Before, the monitor text stopped
# after about 1400 bytes, some 16 modules here, and the library list
# after 256 modules.)
# mode: many_modules
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $block_x == 0 && $thread_x == 0
continue
monitor modules
python print("libraries: %d" % sum(1 for l in gdb.execute("info sharedlibrary", to_string=True).splitlines() if "gdb_dyn_kernel.elf" in l))
delete
continue
# expect-gdb: ^1 .*gdb_kernels.elf at 0x
# expect-gdb: ^17 .*gdb_dyn_kernel.elf at 0x
# expect-gdb: ^261 .*gdb_dyn_kernel.elf at 0x[0-9a-f]+, [0-9]+ bytes
# expect-gdb: libraries: 260
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
