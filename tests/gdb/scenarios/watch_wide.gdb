# A watchpoint on a 64-bit value stops on a store to any of its bytes:
# the low word, then the high word alone, then one byte inside it, but
# not on the next value. (Before, the trigger matched the first byte
# only: the high-word and the byte stores ran past it.) A range no one
# trigger can watch (3 bytes) is refused, not watched in part.
# mode: wide
set breakpoint pending on
break gdb_kernels.c:@MARK_wide_low@
continue
delete
watch -l *(char(*)[3])&v[1]
continue
delete
watch -l v[0]
continue
continue
continue
continue
# expect-gdb: Could not insert hardware watchpoint 2
# expect-gdb: Hardware watchpoint 3: -location v\[0\]
# expect-gdb: New value = 1$
# expect-gdb: New value = 30064771073$
# expect-gdb: New value = 30064771329$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
