/* Writes the pixel-history test frame (tests/replay/pixel_scene.c) as a
 * capture file, for the frame-debugger scenarios scenarios/scene_*.gdb:
 * its draws write, lose the early and the late depth test, discard and
 * miss pixel (10,12).
 *   rd_scene_write gfx_shaders.elf OUT.wscap */
#include <stdio.h>
#include "pixel_scene.h"

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: rd_scene_write gfx_shaders.elf OUT.wscap\n"); return 2; }
    char err[512];
    if (scene_write_capture(argv[2], argv[1], err, sizeof err)) { fprintf(stderr, "rd_scene_write: %s\n", err); return 1; }
    return 0;
}
