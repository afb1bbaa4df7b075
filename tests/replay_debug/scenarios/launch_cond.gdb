# $launch is the same in every replay: a condition on it stops in the
# launch it names (it read a new device launch id each replay, so a
# condition on the second launch's id never held).
set breakpoint pending on
break rd_kernels.c:@MARK_start@ if $block_x == 1 && $thread_x == 5
continue
set $first = $launch
printf "FIRST %d\n", $launch
continue
printf "SECOND %d\n", $launch
delete 1
eval "break rd_kernels.c:@MARK_start@ if $launch == %d && $block_x == 1 && $thread_x == 5", $first + 1
reverse-continue
reverse-continue
continue
printf "AGAIN %d %d\n", $launch - $first, $block_x
# expect-gdb: AGAIN 1 1
# count-gdb: 1 ^FIRST
# count-gdb: 1 ^SECOND
