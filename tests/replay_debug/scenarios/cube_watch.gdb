# A watchpoint in a graphics frame: at vertex 0's shader, `watch -l` on
# the light term it writes into its varyings (global memory) stops at
# that store with gdb's old and new value, the frame then runs to its end
# (no later store there), and reverse-continue comes back to the store.
set breakpoint pending on
break cube_vs
continue
delete
watch -l out->light
continue
printf "VERTEX %d\n", $thread_x
continue
reverse-continue
x/i $pc
# expect-gdb: hit Hardware watchpoint 2: -location out->light
# expect-gdb: New value = 0\.5
# expect-gdb: VERTEX 0
# expect-gdb: No more reverse-execution history
# expect-gdb: Old value = 0\.5
# expect-gdb: cube_kernel.c:18
# expect-gdb: =>.*\sfsw\s
