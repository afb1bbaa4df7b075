# A watchpoint on a 64-bit value stops on a store to any of its bytes:
# the low word, then the high word alone, then one byte inside it, but
# not on the next value. (Before, the trigger matched the first byte
# only: the high-word and the byte stores ran past it.) A range no one
# trigger can watch (3 bytes of v[1] here, 12 bytes in watch_struct.gdb)
# is held by two chained triggers (>= its start, < its end): it stops on
# the store that touches it and only that one. (Before 2026-11-27 such a
# range was refused: "Could not insert hardware watchpoint".)
# mode: wide
set breakpoint pending on
break gdb_kernels.c:@MARK_wide_low@
continue
delete
watch -l v[0]
watch -l *(char(*)[3])&v[1]
continue
continue
continue
continue
printf "SEEN\n"
continue
# expect-gdb: Hardware watchpoint 2: -location v\[0\]
# expect-gdb: Hardware watchpoint 3: -location \*\(char\(\*\)\[3\]\)&v\[1\]
# expect-gdb: New value = 1$
# expect-gdb: New value = 30064771073$
# expect-gdb: New value = 30064771329$
# expect-gdb: New value = "\\005\\000"
# reject-gdb: Could not insert hardware watchpoint
# expect-gdb: SEEN
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
