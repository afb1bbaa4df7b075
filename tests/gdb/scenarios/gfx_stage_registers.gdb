# The graphics registers read only what they mean in the lane's stage:
# in a vertex shader $pixel_x, $pixel_y, $gfx_flags and $primitive read
# 0xffffffff (they read the vertex id, the instance, 0 and the draw id);
# in a fragment shader $vertex_id reads 0xffffffff (it read the pixel's
# x), for gdb's reads and for conditions the device evaluates alike: a
# vertex breakpoint `if $pixel_x == 1 || $vertex_id == 2` stops at vertex
# 2 (it stopped at vertex 1), a fragment one `if $vertex_id == 10` never
# stops (it stopped at pixel (10,14)).
# mode: gfx
set breakpoint pending on
break gdb_kernels.c:@MARK_vertex@ if $pixel_x == 1 || $vertex_id == 2
continue
printf "vs: vertex %d instance %d draw %d pixel 0x%x 0x%x flags 0x%x primitive 0x%x\n", $vertex_id, $instance_id, $draw, $pixel_x, $pixel_y, $gfx_flags, $primitive
delete
break gdb_kernels.c:@MARK_fragment@ if $pixel_x == 10 && $pixel_y == 12
continue
printf "fs: pixel %d %d vertex 0x%x instance %d draw %d\n", $pixel_x, $pixel_y, $vertex_id, $instance_id, $draw
delete
break gdb_kernels.c:@MARK_fragment@ if $vertex_id == 10
continue
# expect-gdb: ^vs: vertex 2 instance 0 draw 0 pixel 0xffffffff 0xffffffff flags 0xffffffff primitive 0xffffffff$
# expect-gdb: ^fs: pixel 10 12 vertex 0xffffffff instance 0 draw 0$
# expect-gdb: exited normally|exited with code 00
# reject-gdb: SIGTRAP|SIGSEGV
# expect-app: result ok
# expect-exit: 0
