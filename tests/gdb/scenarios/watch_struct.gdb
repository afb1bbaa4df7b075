# A watchpoint on 12 bytes that no one trigger can match (bytes 2..13 of
# the 16 the wide kernel writes: two chained triggers, >= 2 and < 14).
# Its four stores: v[0] += 1 touches bytes 0..7 (the trigger fires, but
# the watched bytes keep their value, so gdb says nothing), the int at
# byte 4 changes bytes 4..7 (a stop), the char at byte 1 lies outside
# (no trigger), v[1] = 5 changes byte 8 (a stop). Then the kernel ends.
# mode: wide
set breakpoint pending on
break gdb_kernels.c:@MARK_wide_low@
continue
delete
watch -l *(char(*)[12])((char *)v + 2)
continue
printf "FIRST %d\n", ((int *)v)[1]
continue
printf "SECOND %d\n", ((int *)v)[2]
continue
# expect-gdb: Hardware watchpoint 2: -location
# count-gdb: 2 hit Hardware watchpoint 2
# expect-gdb: FIRST 7
# expect-gdb: SECOND 5
# reject-gdb: Could not insert hardware watchpoint
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
