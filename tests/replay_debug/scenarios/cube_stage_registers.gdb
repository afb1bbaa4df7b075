# The graphics registers in a replayed frame read what they mean in the
# stopped lane's stage, as live (tests/gdb/scenarios/gfx_stage_registers.gdb):
# in the vertex shader $pixel_x, $pixel_y, $gfx_flags and $primitive read
# 0xffffffff (they read the vertex id, the instance, 0 and the draw), in
# the fragment shader $vertex_id does (it read the pixel's x), and so do
# the conditions the shadow unit evaluates: `if $pixel_x == 5 || $vertex_id
# == 7` stops at vertex 7 (it stopped at vertex 5), `if $vertex_id == 320`
# in the fragment shader runs to the frame end (it stopped at x 320).
set breakpoint pending on
break cube_vs if $pixel_x == 5 || $vertex_id == 7
continue
printf "vs: vertex %d instance %d draw %d pixel 0x%x 0x%x flags 0x%x primitive 0x%x\n", $vertex_id, $instance_id, $draw, $pixel_x, $pixel_y, $gfx_flags, $primitive
delete
monitor debug-pixel 320 240
continue
printf "fs: pixel %d %d vertex 0x%x instance %d draw %d\n", $pixel_x, $pixel_y, $vertex_id, $instance_id, $draw
monitor debug-pixel off
delete
break cube_fs if $vertex_id == 320
continue
monitor position
# expect-gdb: ^vs: vertex 7 instance 0 draw 0 pixel 0xffffffff 0xffffffff flags 0xffffffff primitive 0xffffffff$
# expect-gdb: ^fs: pixel 320 240 vertex 0xffffffff instance 0 draw 0$
# expect-gdb: at the frame end
# reject-gdb: vertex 5 instance
