# Breakpoints in graphics shaders with conditions on the system values
# (issue 11 item 5): the vertex shader stops for vertex 2 only, the
# fragment shader for pixel (10,12) only; gdb sees the shader's input
# (the fragment's window position) and the image is unchanged. A
# fragment's $instance_id is its primitive's instance (it read the
# pixel's y, 12).
# mode: gfx
set breakpoint pending on
break gdb_kernels.c:@MARK_vertex@ if $vertex_id == 2
continue
printf "vertex %d instance %d draw %d\n", $vertex_id, $instance_id, $draw
print in->pos
delete
break gdb_kernels.c:@MARK_fragment@ if $pixel_x == 10 && $pixel_y == 12
continue
printf "pixel %d %d primitive %d instance %d helper %d\n", $pixel_x, $pixel_y, $primitive, $instance_id, ($gfx_flags >> 1) & 1
print in->position
info thread
monitor breakpoints
delete
continue
# expect-gdb: ^vertex 2 instance 0 draw 0$
# expect-gdb: = \{1, 1\}
# expect-gdb: ^pixel 10 12 primitive 1 instance 0 helper 0$
# expect-gdb: x = 10.5, y = 12.5
# expect-gdb: ^\* [0-9]+ +Thread [0-9]+ "draw 0 pixel \(10,12\) primitive 1 instance 0 core
# expect-gdb: Thread [0-9]+ "draw 0 pixel \(11,12\) primitive 1 instance 0 core
# expect-gdb: warp halts at breakpoints since gdb attached: 2$
# expect-gdb: exited normally|exited with code 00
# reject-gdb: SIGTRAP|SIGSEGV
# expect-app: result ok
# expect-exit: 0
